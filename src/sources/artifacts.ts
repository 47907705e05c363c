// Downloads workflow-run artifacts whose names match the patterns, so the local input search can run inside them.
import { DefaultArtifactClient, type Artifact, type FindOptions } from '@actions/artifact';
import { lstat, mkdir, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { InputError } from '../errors.js';

export interface ArtifactRequest {
  /** Name globs, e.g. `plog-rank-*`. */
  patterns: string[];
  /** Another run's id, with the repository and a token; undefined = this run, through the results service. */
  crossRun?: { runId: number; owner: string; repo: string; token: string };
  /** Every artifact goes to `<dir>/<artifact name>/`. */
  dir: string;
}

export interface DownloadedArtifact {
  name: string;
  id: number;
  path: string;
}

export type Logger = (message: string) => void;

/** Lists, filters and downloads; an empty match is an error that lists what the run does have. */
export async function downloadArtifacts(request: ArtifactRequest, log: Logger = () => {}): Promise<DownloadedArtifact[]> {
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
  const downloaded: DownloadedArtifact[] = [];
  for (const artifact of selected) {
    const target = path.join(root, safeDirName(artifact.name));
    await mkdir(target, { recursive: true });
    log(`Downloading artifact '${artifact.name}' (${artifact.size} bytes) from ${where}`);
    await client.downloadArtifact(artifact.id, { path: target, ...find });
    await assertContained(target, root);
    downloaded.push({ name: artifact.name, id: artifact.id, path: target });
  }
  return downloaded;
}

/** Artifact names become folder names: keep them one path segment. */
function safeDirName(name: string): string {
  const cleaned = name.replace(/[\\/:*?"<>|\0]/g, '_').replace(/^\.+$/, '_');
  return cleaned || '_';
}

/** A symlink inside an artifact must not lead the parsers outside the download folder. */
async function assertContained(dir: string, root: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const info = await lstat(full);
    if (info.isSymbolicLink()) {
      const resolved = await realpath(full).catch(() => full);
      if (!isInside(resolved, root)) throw new InputError(`artifact entry ${path.relative(root, full)} links outside the download folder`);
    } else if (info.isDirectory()) {
      await assertContained(full, root);
    }
  }
}

export function isInside(candidate: string, root: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
