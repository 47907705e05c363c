// Downloads workflow-run artifacts whose names match the patterns, so the local input search can run inside them.
import { DefaultArtifactClient, type Artifact, type FindOptions } from '@actions/artifact';
import { mkdir, readdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { InputError, isExpectedFailure } from '../errors.js';
import { extractZipSafely } from './unzip.js';

export interface ArtifactRequest {
  /** Name globs, e.g. `plog-rank-*`. */
  patterns: string[];
  /** Another run's id, with the repository and a token; undefined = this run, through the results service. */
  crossRun?: { runId: number; owner: string; repo: string; token: string };
  /** Every artifact goes to `<dir>/<artifact name>/`. */
  dir: string;
  /** Refuse an artifact that expands to more than this (an untrusted report upload); default: no limit. */
  maxBytes?: number;
}

export interface DownloadedArtifact {
  name: string;
  id: number;
  path: string;
}

export type Logger = (message: string) => void;

/** Lists, filters and downloads; an empty match is an error that lists what the run does have. */
export async function downloadArtifacts(
  request: ArtifactRequest,
  log: Logger = () => {},
  warn: Logger = log,
): Promise<DownloadedArtifact[]> {
  const client = new DefaultArtifactClient();
  const find: FindOptions = request.crossRun
    ? {
        findBy: {
          token: request.crossRun.token,
          workflowRunId: request.crossRun.runId,
          repositoryOwner: request.crossRun.owner,
          repositoryName: request.crossRun.repo,
        },
      }
    : {};
  const { artifacts } = await client.listArtifacts({ latest: true, ...find });
  const matchers = request.patterns.map((p) => picomatch(p, { dot: true }));
  const selected = artifacts
    .filter((a: Artifact) => matchers.some((m) => m(a.name)))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const where = request.crossRun ? `run ${request.crossRun.runId} of ${request.crossRun.owner}/${request.crossRun.repo}` : 'this run';
  if (selected.length === 0) {
    const names = artifacts.map((a) => a.name).sort();
    throw new InputError(
      `no artifact of ${where} matches ${request.patterns.map((p) => `'${p}'`).join(', ')}; ` +
        (names.length ? `it has: ${names.join(', ')}` : 'it has no artifacts (did the training job upload them?)'),
    );
  }

  await mkdir(request.dir, { recursive: true });
  const root = await realpath(request.dir);
  // Next to the folder, not in it: an artifact may be named `.zips`, and its folder must not be the one removed below.
  const staging = `${root}.zips`;
  const downloaded: DownloadedArtifact[] = [];
  const folders = new Set<string>();
  for (const artifact of selected) {
    // `a:b` and `a_b` clean to one folder name: the second gets its id, so two artifacts never merge.
    let folder = safeDirName(artifact.name);
    if (folders.has(folder)) folder = `${folder}-${artifact.id}`;
    folders.add(folder);
    const target = path.join(root, folder);
    const zipDir = path.join(staging, String(artifact.id));
    await mkdir(zipDir, { recursive: true });
    log(`Downloading artifact '${artifact.name}' (${artifact.size} bytes) from ${where}`);
    // The zip is extracted by us, not the client: its unzip trusts entry names (zip-slip).
    await client.downloadArtifact(artifact.id, { path: zipDir, skipDecompress: true, ...find }).catch((error: unknown) => {
      throw new InputError(`downloading artifact '${artifact.name}' failed: ${error instanceof Error ? error.message : String(error)}; re-run the job, or check that the token may read the run's artifacts (actions: read)`);
    });
    const [zipName] = await readdir(zipDir);
    if (zipName === undefined) throw new InputError(`artifact '${artifact.name}' downloaded no file`);
    const { files, refused, collided } = await extractZipSafely(path.join(zipDir, zipName), target, request.maxBytes).catch((error: unknown) => {
      if (error instanceof InputError) throw new InputError(`artifact '${artifact.name}': ${error.message}`);
      // A file-system error (ENOSPC, EACCES) is reported as one; anything else is the archive's fault.
      if (isExpectedFailure(error)) throw error;
      throw new InputError(`artifact '${artifact.name}' is not a readable zip archive: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (refused.length > 0) warn(skippedMessage(artifact.name, refused, 'written outside the download folder'));
    if (collided.length > 0) warn(skippedMessage(artifact.name, collided, 'written over an earlier entry (a file and a folder of one name)'));
    log(`Extracted ${files} file(s) of '${artifact.name}'`);
    downloaded.push({ name: artifact.name, id: artifact.id, path: target });
  }
  await rm(staging, { recursive: true, force: true });
  return downloaded;
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
