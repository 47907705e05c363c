// Downloads the workflow-run artifacts whose names match the patterns, several at a time, so the local input search can run inside them.
import { mkdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { InputError } from '../common/errors.js';
import { formatBytes } from '../model/units.js';
import {
  DEFAULT_RETRY,
  latestOfEachName,
  restService,
  resultsService,
  streamToFile,
  withRetries,
  type ArtifactService,
  type ListedArtifact,
  type RetryListener,
  type RetryPolicy,
} from './artifact-service.js';
import { ArchiveRefused, extractZipSafely } from './unzip.js';

/** What to do when an artifact still fails after its retries: stop, or gate the rest and list it as missing. */
type MissingArtifactPolicy = 'fail' | 'warn';

const DEFAULT_DOWNLOAD_CONCURRENCY = 8;

export interface ArtifactRequest {
  /** Name globs, e.g. `plog-rank-*`. */
  patterns: string[];
  /** Another run's id, with the repository and a token; undefined = this run, through the results service. */
  crossRun?: { runId: number; owner: string; repo: string; token: string };
  /** Every artifact goes to `<dir>/<artifact name>/`. */
  dir: string;
  /** Refuse an artifact listed as larger, or whose entries declare more, than this (an untrusted report upload); default: no limit. */
  maxBytes?: number;
  /** Refuse an artifact with an entry that inflates past this many times its compressed size (after its first MiB); default: no limit. */
  maxInflation?: number;
  /** Downloads at a time; default 8. */
  concurrency?: number;
  /** Default 'fail'. */
  missing?: MissingArtifactPolicy;
  retry?: RetryPolicy;
  /** Where the API addresses and tokens are read; default process.env. */
  env?: NodeJS.ProcessEnv;
}

interface DownloadedArtifact {
  name: string;
  id: number;
  path: string;
}

/** An artifact that could not be downloaded or extracted, and why. */
export interface FailedArtifact {
  name: string;
  id: number;
  reason: string;
  /** The artifact arrived (or was listed) but was refused as untrusted input: `reason` follows "was refused: ". */
  refused: boolean;
}

/** Artifacts that still failed with `missing: 'fail'`: the message lists them; callers may word it for their mode. */
export class ArtifactsFailed extends InputError {
  constructor(
    message: string,
    readonly failed: readonly FailedArtifact[],
    /** Where they were listed: `this run`, `run 9301 of owner/repo`. */
    readonly where: string,
  ) {
    super(message);
    this.name = 'ArtifactsFailed';
  }
}

export interface FanIn {
  downloaded: DownloadedArtifact[];
  /** Empty unless `missing: 'warn'` (with 'fail' the first failure list is thrown). */
  failed: FailedArtifact[];
  /** Retries over all requests. */
  retries: number;
  bytes: number;
}

export type Logger = (message: string) => void;

/** Lists, filters and downloads `concurrency` at a time, each zip extracted as soon as it is on disk; an empty match is an error that lists what the run does have. */
export async function downloadArtifacts(
  request: ArtifactRequest,
  log: Logger = () => {},
  warn: Logger = log,
): Promise<FanIn> {
  const env = request.env ?? process.env;
  const policy = request.retry ?? DEFAULT_RETRY;
  const service: ArtifactService = request.crossRun
    ? restService(request.crossRun, env, policy)
    : resultsService(env, policy);
  let retries = 0;
  const onRetry: RetryListener = (what, attempt, reason, delayMs) => {
    retries++;
    log(`${what}: attempt ${attempt} failed (${reason}); retrying in ${(delayMs / 1000).toFixed(1)} s`);
  };

  const started = Date.now();
  const selected = await selectArtifacts(service, request.patterns, onRetry);
  const failed: FailedArtifact[] = [];
  // An artifact listed as larger than allowed is not downloaded at all.
  const tooBig = (a: ListedArtifact): boolean => request.maxBytes !== undefined && a.size > request.maxBytes;
  for (const a of selected.filter(tooBig)) {
    failed.push({
      name: a.name,
      id: a.id,
      refused: true,
      reason: `it is ${formatBytes(a.size)}, more than the ${formatBytes(request.maxBytes ?? 0)} allowed`,
    });
  }
  const wanted = selected.filter((a) => !tooBig(a));

  await mkdir(request.dir, { recursive: true });
  const root = await realpath(request.dir);
  // Next to the folder, not in it: an artifact may be named `.zips`, and its folder must not be the one removed below.
  const staging = `${root}.zips`;
  await mkdir(staging, { recursive: true });
  const targets = folderNames(wanted);
  const concurrency = Math.max(1, Math.min(request.concurrency ?? DEFAULT_DOWNLOAD_CONCURRENCY, wanted.length));
  if (wanted.length > 0)
    log(
      `Downloading ${wanted.length} artifact(s) (${formatBytes(sum(wanted.map((a) => a.size)))}) from ${service.where}, ${concurrency} at a time`,
    );

  const downloaded: (DownloadedArtifact | undefined)[] = [];
  let done = 0;
  let bytes = 0;
  const fetch = { service, policy, onRetry, request, warn };
  await forEachBounded(wanted, concurrency, async (artifact, index) => {
    const target = path.join(root, targets[index]!);
    try {
      const { size, files } = await fetchArtifact(artifact, target, path.join(staging, `${artifact.id}.zip`), fetch);
      bytes += size;
      downloaded[index] = { name: artifact.name, id: artifact.id, path: target };
      log(`[${++done}/${wanted.length}] ${artifact.name} ${formatBytes(size)} (${files} file(s))`);
    } catch (error) {
      const refused = error instanceof ArchiveRefused;
      const reason = refused ? error.reason : error instanceof Error ? error.message : String(error);
      failed.push({ name: artifact.name, id: artifact.id, reason, refused });
      log(`[${++done}/${wanted.length}] ${artifact.name} FAILED: ${refused ? `refused: ${reason}` : reason}`);
    }
  });
  await rm(staging, { recursive: true, force: true });

  const seconds = (Date.now() - started) / 1000;
  const ok = downloaded.filter((a): a is DownloadedArtifact => a !== undefined);
  log(
    `Downloaded ${ok.length} of ${selected.length} artifact(s), ${formatBytes(bytes)} in ${seconds.toFixed(1)} s ` +
      `(${concurrency} at a time, ${retries} retr${retries === 1 ? 'y' : 'ies'})`,
  );
  reportFailed(failed, selected.length, service.where, request.missing ?? 'fail', warn);
  return { downloaded: ok, failed, retries, bytes };
}

/** The newest artifact of each name that matches a pattern; none is an error that lists what the run does have. */
async function selectArtifacts(
  service: ArtifactService,
  patterns: readonly string[],
  onRetry: RetryListener,
): Promise<ListedArtifact[]> {
  const artifacts = await service.list(onRetry).catch((error: unknown) => {
    throw new InputError(
      `cannot list the artifacts of ${service.where}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  const matchers = patterns.map((p) => picomatch(p, { dot: true }));
  const selected = latestOfEachName(artifacts)
    .filter((a) => matchers.some((m) => m(a.name)))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
  if (selected.length === 0) {
    const names = [...new Set(artifacts.map((a) => a.name))].sort();
    throw new InputError(
      `no artifact of ${service.where} matches ${patterns.map((p) => `'${p}'`).join(', ')}; ` +
        (names.length ? `it has: ${names.join(', ')}` : 'it has no artifacts (did the training job upload them?)'),
    );
  }
  return selected;
}

/** Downloads one artifact's zip (with retries) and extracts it into `target`; the zip is removed once extracted. */
async function fetchArtifact(
  artifact: ListedArtifact,
  target: string,
  zip: string,
  how: {
    service: ArtifactService;
    policy: RetryPolicy;
    onRetry: RetryListener;
    request: ArtifactRequest;
    warn: Logger;
  },
): Promise<{ size: number; files: number }> {
  const what = `artifact '${artifact.name}'`;
  const size = await withRetries(what, how.policy, how.onRetry, async (signal) => {
    // A signed URL is short-lived: ask again on every attempt.
    const url = await how.service.zipUrl(artifact, how.onRetry);
    return streamToFile(url, zip, signal, how.policy.timeoutMs, what);
  });
  // The zip is extracted by us: entry names are not trusted (zip-slip).
  const { files, refused, collided } = await extractZipSafely(zip, target, {
    maxBytes: how.request.maxBytes,
    maxInflation: how.request.maxInflation,
  });
  await rm(zip, { force: true });
  if (refused.length > 0) how.warn(skippedMessage(artifact.name, refused, 'written outside the download folder'));
  if (collided.length > 0)
    how.warn(
      skippedMessage(artifact.name, collided, 'written over an earlier entry (a file and a folder of one name)'),
    );
  return { size, files };
}

/** Artifacts that could not be had: an error under `missing: 'fail'`, a warning under 'warn'. */
function reportFailed(
  failed: FailedArtifact[],
  selected: number,
  where: string,
  missing: 'fail' | 'warn',
  warn: Logger,
): void {
  failed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (failed.length === 0) return;
  const list = failed.map((f) => `'${f.name}' (${f.refused ? `refused: ${f.reason}` : f.reason})`).join('; ');
  if (missing === 'fail') {
    // The advice only where there are others to gate.
    const advice = failed.length < selected ? " Set 'missing-artifacts: warn' to gate the others." : '';
    throw new ArtifactsFailed(
      `${failed.length} of ${selected} artifact(s) of ${where} could not be downloaded: ${list}.${advice}`,
      failed,
      where,
    );
  }
  warn(`${failed.length} of ${selected} artifact(s) missing, gated without them: ${list}`);
}

/** Runs `work` over the items, at most `limit` at once, in list order. */
async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** One folder per artifact; `a:b` and `a_b` clean to one name, so the second gets its id and two artifacts never merge. */
function folderNames(artifacts: ListedArtifact[]): string[] {
  const used = new Set<string>();
  return artifacts.map((artifact) => {
    let folder = safeDirName(artifact.name);
    if (used.has(folder)) folder = `${folder}-${artifact.id}`;
    used.add(folder);
    return folder;
  });
}

/** Most skipped entry names listed in a warning. */
const SKIPPED_NAMES_SHOWN = 20;

/** One warning per artifact and cause, however many entries: GitHub keeps 10 warning annotations per step. */
function skippedMessage(artifactName: string, names: string[], why: string): string {
  const shown = names.slice(0, SKIPPED_NAMES_SHOWN).map((name) => `'${name}'`);
  const more = names.length - shown.length;
  const what = names.length === 1 ? `entry ${shown[0]} would be` : `${names.length} entries would be`;
  const list = names.length === 1 ? '' : `: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  return `artifact '${artifactName}': ${what} ${why}; skipped${list}`;
}

/** Artifact names become folder names: keep them one path segment. */
function safeDirName(name: string): string {
  const cleaned = name.replace(/[\\/:*?"<>|\0]/g, '_').replace(/^\.+$/, '_');
  return cleaned || '_';
}
