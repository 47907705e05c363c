// `check --comment` and `--host/--repo/--pr`: the change request a run is about, the limits that gate it (its base
// commit's, as the Action does on GitHub), and the sticky comment where it is reviewed. Names no host: src/hosts/ does.
import path from 'node:path';
import { UsageError } from '../common/errors.js';
import { visible } from '../common/visible.js';
import { loadBaseline } from '../gate/baseline.js';
import { DEFAULT_CONFIG_PATH, loadGateConfig } from '../gate/thresholds.js';
import type { GateReport } from '../gate/types.js';
import type { ReviewFlags, ReviewTarget } from '../hosts/detect.js';
import type { Limits } from '../hosts/limits.js';
import type { ChangeRequest, Host } from '../hosts/types.js';
import type { LimitsUsed } from '../report/limits-changed.js';

export type CommentWhen = 'on-change' | 'always';

export interface Review {
  target: ReviewTarget;
  host: Host | undefined;
  /** The change request's limits (undefined for a run that is not about one). */
  limits: (Limits & { used: LimitsUsed }) | undefined;
}

type Say = (line: string) => void;

/** A repository path from a command-line path (relative to the working directory); outside the checkout is refused. */
function repositoryPath(file: string, flag: string): string {
  const relative = path.isAbsolute(file) ? path.relative(process.cwd(), file) : file;
  const normalized = path.posix.normalize(relative.split(path.sep).join('/'));
  if (normalized === '.' || normalized === '..' || normalized.startsWith('../') || path.posix.isAbsolute(normalized)) {
    throw new UsageError(`${flag} must be a file inside the checkout to be read at the base commit, got '${file}'`);
  }
  return normalized;
}

async function hostOf(target: ReviewTarget): Promise<Host | undefined> {
  const { token } = target;
  if (token === undefined) return undefined;
  if (target.host === 'gitlab')
    return (await import('../hosts/gitlab.js')).gitLabHost({ base: target.api, project: target.repo, token });
  if (target.host === 'gitcode')
    return (await import('../hosts/gitcode.js')).gitCodeHost({
      base: target.api,
      repo: target.repo,
      token,
      variable: target.tokenVariable,
    });
  return (await import('../hosts/github.js')).gitHubHost({ base: target.api, repo: target.repo, token });
}

/**
 * The review of this run, or null when none was asked for (no --comment, no --host). On a change request the limits
 * are its base commit's: read through git when the clone has the commit, else through the host's API.
 */
export async function prepareReview(
  flags: ReviewFlags & { comment: boolean },
  files: { baseline: string; config: string | undefined },
  say: Say,
): Promise<Review | null> {
  if (!flags.comment && flags.host === undefined) return null;
  const { detectReview } = await import('../hosts/detect.js');
  const target = detectReview(flags, process.env);
  if (target === null)
    throw new UsageError(
      '--comment: no CI host found (GitHub Actions, GitLab CI, an AtomGit pipeline): give --host github|gitlab|gitcode --repo OWNER/NAME --pr N',
    );
  const host = await hostOf(target);
  if (target.number === undefined) {
    say(
      `note: ${target.from}: not a change request, the working tree's baseline and config gate it and nothing is posted`,
    );
    return { target, host, limits: undefined };
  }
  const noun = target.host === 'gitlab' ? 'merge request' : 'pull request';
  let cr: ChangeRequest | undefined;
  try {
    cr = host === undefined ? undefined : await host.changeRequest(target.number);
  } catch (error) {
    // The CI named the base commit: a token that cannot read the change request costs its labels, not the gate.
    if (!(error instanceof Error) || error.name !== 'HostError' || target.baseSha === undefined) throw error;
    say(
      `warning: cannot read ${noun} ${target.number} (${visible(error.message)}): its labels are not read, and its base commit's limits gate it`,
    );
  }
  const baseSha = target.baseSha ?? cr?.baseSha;
  if (baseSha === undefined)
    throw new UsageError(
      `cannot tell the base commit of ${noun} ${target.number}, whose baseline and config gate it: set ${target.tokenVariable} or pass --base-sha`,
    );
  const paths = {
    baseline: repositoryPath(files.baseline, '--baseline'),
    config: repositoryPath(files.config ?? DEFAULT_CONFIG_PATH, '--config'),
  };
  const { chooseLimits, gitReaderWith, labelForHead, limitsAtCommit } = await import('../hosts/limits.js');
  const reader = (await gitReaderWith(process.cwd(), baseSha)) ?? host;
  if (reader === undefined) {
    throw new UsageError(
      `the base commit ${baseSha.slice(0, 12)} of ${noun} ${target.number} is not in this clone and there is no ${target.tokenVariable} to read it through the API: fetch it (git fetch origin ${baseSha}) or set ${target.tokenVariable}`,
    );
  }
  const base = await limitsAtCommit(reader, paths, baseSha).catch((error: unknown) => {
    throw error instanceof Error && error.name === 'HostError'
      ? new UsageError(
          `cannot read the base commit ${baseSha.slice(0, 12)} of ${noun} ${target.number}, whose baseline and config gate it: ${error.message}`,
        )
      : error;
  });
  const head: Limits = { baseline: await loadBaseline(files.baseline), config: await loadGateConfig(files.config) };
  const labels = cr?.labels ?? [];
  const label = base.config.baselineUpdateLabel;
  let notCounted;
  if (host !== undefined && cr !== undefined && labels.includes(label)) {
    const labelReader = (await gitReaderWith(process.cwd(), cr.headSha)) ?? host;
    notCounted = await labelForHead(host, labelReader, cr, [paths.baseline, paths.config], label);
  }
  const limits = chooseLimits(base, head, { baseSha, labels }, notCounted);
  const { used } = limits;
  say(
    `note: ${target.from}: ${noun} ${target.number} is gated against the baseline and config of ${used.from === 'base' ? `its base commit ${baseSha.slice(0, 12)} (read through ${'via' in reader ? 'git' : 'the API'})` : `its own head (label '${label}')`}`,
  );
  sayLimitChanges(used, label, noun, target, say);
  return { target, host, limits };
}

/**
 * The limits the change request changes, and why they were not used: a baseline-update label that did not count, or
 * none set; then the first 10 changes.
 */
function sayLimitChanges(used: LimitsUsed, label: string, noun: string, target: ReviewTarget, say: Say): void {
  if (used.labelNotCounted !== undefined) {
    const why = used.labelNotCounted;
    const reason =
      why.how === 'label'
        ? `${why.files.join(' and ')} changed after it was set (${why.since.slice(0, 12)} → ${why.at.slice(0, 12)})`
        : `which limits a maintainer saw cannot be told (${why.unknown ?? 'no record'})`;
    say(
      `warning: the label '${label}' did not count: ${reason}; ${why.removed ? 'it was removed' : `${target.tokenVariable} cannot remove it`}: a maintainer sets it again after reviewing the change`,
    );
  } else if (used.changes.length > 0 && used.from === 'base') {
    say(
      `warning: this ${noun} changes ${used.changes.length} limit(s) (baseline or config); they were not used: a maintainer adds the label '${label}' to use them`,
    );
  }
  for (const change of used.changes.slice(0, 10))
    say(`  ${change.source} ${visible(change.key)}: ${String(change.before)} → ${String(change.after)}`);
  if (used.changes.length > 10) say(`  …and ${used.changes.length - 10} more`);
}

/** The run's page, linked under the verdict: GitLab's job, Jenkins' build, GitHub's run. */
function runUrl(env: NodeJS.ProcessEnv): string | undefined {
  const github =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  const url = env.CI_JOB_URL || env.BUILD_URL || github;
  return url !== undefined && /^https?:\/\//.test(url) ? url : undefined;
}

/** The comment's limit: GitHub's 65,536 characters, which GitLab's and GitCode's notes also hold. */
const COMMENT_LIMIT = 65_536;

/** Posts (or edits) the sticky comment; any failure is one line and never changes the verdict or the exit code. */
export async function postReview(
  review: Review,
  report: GateReport,
  when: CommentWhen,
  extra: { view: import('../report/view.js').ReportView; preface?: string },
  say: Say,
): Promise<void> {
  const { target, host, limits } = review;
  const noun = target.host === 'gitlab' ? 'merge request note' : 'pull request comment';
  if (target.number === undefined) return;
  if (host === undefined) {
    say(
      `warning: no ${target.tokenVariable}: the ${noun} was not posted (it needs ${target.host === 'gitlab' ? 'a project or personal access token with the `api` scope; CI_JOB_TOKEN cannot post notes' : 'a token that may comment'})`,
    );
    return;
  }
  const { commentMarker } = await import('../github/comment.js');
  const { renderMarkdown } = await import('../report/markdown.js');
  const { upsertSticky } = await import('../hosts/sticky.js');
  const marker = commentMarker('default');
  const url = runUrl(process.env);
  const body = renderMarkdown(extra.view, {
    marker,
    maxBytes: COMMENT_LIMIT,
    ...(url !== undefined ? { runUrl: url } : {}),
    ...(extra.preface !== undefined ? { preface: extra.preface } : {}),
    // GitCode's renderer shows a mermaid block as code (docs/hosts/gitcode.md): no charts there.
    ...(target.host === 'gitcode' ? { chartModules: 0 } : {}),
  });
  const hasFindings =
    report.entries.some((e) => e.severity !== 'ok') ||
    (limits?.used.changes.length ?? 0) > 0 ||
    limits?.used.labelNotCounted !== undefined;
  try {
    const result = await upsertSticky(host, { number: target.number, body, marker, policy: when, hasFindings });
    if (result.action === 'skipped') say(`note: the ${noun} was not posted: ${result.reason}`);
    else if (result.action === 'replaced')
      say(
        `note: the ${noun} was replaced (${host.name} documents no edit): ${result.old} → ${result.id}${result.leftover !== undefined ? `; ${result.leftover}` : ''}`,
      );
    else say(`note: the ${noun} was ${result.action} (${result.id})`);
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'HostError') throw error;
    say(`warning: could not post the ${noun}: ${visible(error.message)}; the verdict stands`);
  }
}
