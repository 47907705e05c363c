// Command-line argument parsing: flags may take several values (`--plog a b --compare c`), as the usage lines promise.
import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

export interface OptionSpec {
  /** Takes a value; with `multiple`, every following bare word until the next flag belongs to it. */
  type: 'string' | 'boolean';
  multiple?: boolean;
}

export type ParsedOptions = Record<string, string | string[] | boolean | undefined>;

export function parseCommandArgs(args: string[], spec: Record<string, OptionSpec>, command: string): ParsedOptions {
  let tokens;
  try {
    ({ tokens } = parseArgs({
      args,
      options: Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, { type: v.type, multiple: v.multiple ?? false }])),
      allowPositionals: true,
      strict: true,
      tokens: true,
    }));
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
  const out: ParsedOptions = {};
  let last: string | undefined;
  for (const token of tokens) {
    if (token.kind === 'option') {
      const opt = spec[token.name];
      if (opt === undefined) throw new UsageError(`${command}: unknown option --${token.name}`);
      if (opt.type === 'boolean') {
        out[token.name] = true;
        last = undefined;
      } else if (opt.multiple) {
        const list = (out[token.name] as string[] | undefined) ?? [];
        if (token.value !== undefined) list.push(token.value);
        out[token.name] = list;
        last = token.name;
      } else {
        if (out[token.name] !== undefined) throw new UsageError(`${command}: --${token.name} given twice`);
        out[token.name] = token.value;
        last = undefined;
      }
    } else if (token.kind === 'positional') {
      if (last === undefined) throw new UsageError(`${command}: unexpected argument '${token.value}'`);
      (out[last] as string[]).push(token.value);
    } else {
      last = undefined;
    }
  }
  return out;
}

export function stringList(opts: ParsedOptions, name: string): string[] {
  const v = opts[name];
  return Array.isArray(v) ? v : [];
}

export function optionalString(opts: ParsedOptions, name: string): string | undefined {
  const v = opts[name];
  return typeof v === 'string' ? v : undefined;
}
