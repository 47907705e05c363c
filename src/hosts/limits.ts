// Which baseline and config gate a change request on any host: its base commit's, read through git (when the clone
// has the commit) or the host's API, never the change's own unless a maintainer's label counts for them.
import { execFile } from 'node:child_process';
import { UsageError } from '../common/errors.js';
import { parseBaseline, type Baseline } from '../gate/baseline.js';
import { parseGateConfig } from '../gate/thresholds.js';
import type { GateConfig } from '../gate/types.js';
import { parseJson } from '../json/reader.js';
import {
  baselineLimitChanges,
  configLimitChanges,
  type LabelNotCounted,
  type LimitsUsed,
} from '../report/limits-changed.js';
import { HostError, type ChangeRequest, type Host } from './types.js';

export type Limits = { baseline: Baseline | null; config: GateConfig };

const HOST_NAMES = { github: 'GitHub', gitlab: 'GitLab', gitcode: 'GitCode' } as const;

/** Reads repository files at a commit: through git or a host's API. */
export interface CommitReader {
  /** 'git' for a clone; a host (which has no `via`) reads through its API. */
  via?: 'git';
  commitExists(sha: string): Promise<void>;
  fileAt(path: string, sha: string): Promise<string | null>;
}

/** Files are at most this large through git (a baseline of 500,000 keys is well under it). */
const GIT_MAX_BYTES = 512 * 1024 * 1024;

function git(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, maxBuffer: GIT_MAX_BYTES, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code =
        error === null
          ? 0
          : typeof (error as { code?: unknown }).code === 'number'
            ? (error as { code: number }).code
            : 127;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The clone in `cwd`, when it has commit `sha` (a shallow clone may not: then the host's API reads it). */
export async function gitReaderWith(cwd: string, sha: string): Promise<CommitReader | null> {
  const { code } = await git(['cat-file', '-e', `${sha}^{commit}`], cwd);
  if (code !== 0) return null;
  return {
    via: 'git',
    async commitExists() {},
    async fileAt(path, at) {
      // `rev:./path` is relative to the working directory, like the paths the command line is given.
      const spec = `${at}:./${path}`;
      const type = await git(['cat-file', '-t', spec], cwd);
      if (type.code !== 0) return null;
      if (type.stdout.trim() !== 'blob')
        throw new UsageError(`${path} at ${at.slice(0, 12)} is a ${type.stdout.trim()}, not a file`);
      const blob = await git(['cat-file', 'blob', spec], cwd);
      if (blob.code !== 0)
        throw new UsageError(
          `git cannot read ${path} at ${at.slice(0, 12)}: ${blob.stderr.trim().split('\n')[0] ?? ''}`,
        );
      return blob.stdout;
    },
  };
}

/** The baseline and config at `sha` (absent config = defaults, absent baseline = null); the commit must be readable. */
export async function limitsAtCommit(
  reader: CommitReader,
  paths: { baseline: string; config: string },
  sha: string,
): Promise<Limits> {
  await reader.commitExists(sha);
  const [baselineText, configText] = await Promise.all([
    reader.fileAt(paths.baseline, sha),
    reader.fileAt(paths.config, sha),
  ]);
  const at = `@${sha.slice(0, 12)}`;
  return {
    baseline: baselineText === null ? null : parseBaseline(baselineText, `${paths.baseline}${at}`),
    config:
      configText === null
        ? parseGateConfig({}, `${paths.config}${at}`)
        : parseGateConfig(parseJson(configText, `${paths.config}${at}`), `${paths.config}${at}`),
  };
}

/**
 * The base commit's limits, or the change's own when they differ and it carries the base config's label, unless the
 * label did not count (`notCounted`: the limits changed after it was set). The Action's rule, on every host.
 */
export function chooseLimits(
  base: Limits,
  head: Limits,
  pr: { baseSha: string; labels: string[] },
  notCounted?: LabelNotCounted,
): Limits & { used: LimitsUsed } {
  const changes = [
    ...baselineLimitChanges(base.baseline, head.baseline),
    ...configLimitChanges(base.config, head.config),
  ];
  const label = base.config.baselineUpdateLabel;
  const fromPullRequest = changes.length > 0 && pr.labels.includes(label) && notCounted === undefined;
  const chosen = fromPullRequest ? head : base;
  const used: LimitsUsed = { from: fromPullRequest ? 'pull-request' : 'base', baseSha: pr.baseSha, label, changes };
  if (notCounted !== undefined) used.labelNotCounted = notCounted;
  return { ...chosen, used };
}

/**
 * Whether the maintainer label counts for the change at `headSha`: the limit files must be as they were at the head the
 * change request had when the label was last added (the host's label events say when). Undefined when it counts; else
 * why not, the label taken off where the token may.
 */
export async function labelForHead(
  host: Host,
  reader: CommitReader,
  cr: ChangeRequest,
  paths: string[],
  label: string,
): Promise<LabelNotCounted | undefined> {
  const voided = async (why: Omit<LabelNotCounted, 'removed'>): Promise<LabelNotCounted> => {
    let removed = false;
    if (host.removeLabel !== undefined) {
      try {
        await host.removeLabel(cr.number, label);
        removed = true;
      } catch (error) {
        if (!(error instanceof HostError)) throw error;
      }
    }
    return { ...why, removed };
  };
  if (host.headWhenLabelled === undefined) {
    return voided({
      how: 'unknown',
      since: cr.headSha,
      at: cr.headSha,
      files: [],
      unknown: `${HOST_NAMES[host.name]} records no time for a label`,
    });
  }
  const seen = await host.headWhenLabelled(cr.number, label);
  if (seen === null)
    return voided({
      how: 'unknown',
      since: cr.headSha,
      at: cr.headSha,
      files: [],
      unknown: `no event of the ${host.noun} records when the label was set`,
    });
  if (typeof seen === 'object')
    return voided({ how: 'unknown', since: cr.headSha, at: cr.headSha, files: [], unknown: seen.unknown });
  if (seen === cr.headSha) return undefined;
  const files: string[] = [];
  for (const file of paths)
    if ((await reader.fileAt(file, seen)) !== (await reader.fileAt(file, cr.headSha))) files.push(file);
  return files.length === 0 ? undefined : voided({ how: 'label', since: seen, at: cr.headSha, files });
}
