// The flags that record this machine's environment with a run (check, baseline, history append), and the node they ask for.
import type { OptionSpec } from './args.js';
import type { NodeRequest } from '../run/collect.js';

/** This machine's environment, recorded with the run (the baseline keeps it; check compares it). */
export const ENVIRONMENT_OPTIONS = {
  'node-environment': {
    type: 'boolean',
    description: "record this machine's CANN, driver, chip, torch and memory variables",
  },
  env: { type: 'string', multiple: true, value: 'KEY=VALUE', description: 'add or override an environment item' },
} satisfies Record<string, OptionSpec>;

/** This machine as a node of the run, from --env items and (with --node-environment, or without that flag) what it finds. */
export function nodeFromFlags(flags: {
  env: string[];
  nodeEnvironment?: boolean;
  node?: string | undefined;
}): NodeRequest {
  return {
    items: flags.env,
    itemsFrom: '--env',
    collect: flags.nodeEnvironment ?? true,
    ...(flags.node ? { name: flags.node } : {}),
  };
}
