// What every Action mode shares: the work folder, this run and repository, and reading the inputs' evidence into a snapshot.
import * as core from '@actions/core';
import os from 'node:os';
import path from 'node:path';
import type { ActionInputs } from './inputs.js';
import { UsageError } from '../common/errors.js';
import { workflowContext, type RepoRef } from '../github/context.js';
import type { Collected } from '../parsers/collect.js';
import { noSpecs, SOURCES, type SpecsBySource } from '../parsers/evidence-sources.js';
import { collect } from '../run/collect.js';

/** Malformed records shown as warnings, of the 10 warning annotations GitHub keeps per step. */
const SKIPPED_RECORD_WARNINGS = 5;

export function workDir(): string {
  return path.join(process.env.RUNNER_TEMP || os.tmpdir(), 'ascend-memory-gate');
}

export function thisRepo(): RepoRef {
  const { owner, repo } = workflowContext().repo;
  return { owner, repo };
}

/** What the inputs gave: the snapshot, and the artifacts that did not arrive (missing-artifacts: warn). */
export interface CollectedInputs extends Collected {
  missingArtifacts: string[];
}

/** Downloads the artifacts when asked, then resolves every evidence source's inputs into one snapshot. */
export async function collectInputs(inputs: ActionInputs): Promise<CollectedInputs> {
  const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
  let root = workspace;
  let specs: SpecsBySource = inputs.evidence;
  let missingArtifacts: string[] = [];
  let searchedByDefault = false;

  if (inputs.artifacts.length > 0) {
    root = path.join(workDir(), 'artifacts');
    const repository = inputs.repository ?? thisRepo();
    const crossRun =
      inputs.runId !== undefined && isOtherRun(inputs)
        ? { runId: inputs.runId, owner: repository.owner, repo: repository.repo, token: inputs.token }
        : undefined;
    // Loaded only when needed: a run that reads local files never loads the download code.
    const { downloadArtifacts } = await import('../sources/artifacts.js');
    const fanIn = await downloadArtifacts(
      {
        patterns: inputs.artifacts,
        crossRun,
        dir: root,
        concurrency: inputs.downloadConcurrency,
        missing: inputs.missingArtifacts,
      },
      (m) => core.info(m),
      (m) => core.warning(m),
    );
    missingArtifacts = fanIn.failed.map((f) => f.name);
    // Nothing named: search everything that was downloaded, for every source.
    if (noSpecs(specs)) {
      specs = Object.fromEntries(
        SOURCES.filter((s) => s.searchedByDefault !== false).map((source) => [source.name, ['.']]),
      );
      searchedByDefault = true;
    }
  } else if (noSpecs(specs)) {
    throw new UsageError(
      `set ${SOURCES.map((s) => `'${s.input}'`).join(' and/or ')} (paths in the workspace), or 'artifacts' to download them`,
    );
  }

  const collected = await collect(
    {
      specs,
      root,
      nameOf: (source) => `'${source.input}'`,
      // An input whose paths match nothing, while others found files, stops the run (or warns, with 'missing-artifacts: warn').
      unmatched: searchedByDefault ? 'ignore' : inputs.missingArtifacts,
      searchHelp: "the README's Inputs section lists what a folder is searched for",
      // Sources may write paths relative to the checkout (allocation sites, when their frames lie in it).
      settings: { checkout: workspace },
      skippedShown: SKIPPED_RECORD_WARNINGS,
      // This runner as a node of the run, with its environment, when asked ('collect-environment', 'environment').
      node: {
        items: inputs.environment,
        itemsFrom: "'environment'",
        collect: inputs.collectEnvironment || inputs.mode === 'snapshot',
      },
    },
    {
      warn: (text) => core.warning(text),
      note: (text) => core.info(text),
      progress: (text) => core.info(text),
    },
  );
  return { ...collected, missingArtifacts };
}

/** A workflow run's page: this run's by default. */
export function runUrl(runId: number = workflowContext().runId, repo: RepoRef = thisRepo()): string {
  return `${workflowContext().serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}`;
}

/** 'run-id' or 'repository' names a run other than this one: its artifacts come through the REST API. */
export function isOtherRun(inputs: ActionInputs): boolean {
  return inputs.runId !== undefined && (inputs.runId !== workflowContext().runId || inputs.repository !== undefined);
}

/** The run whose artifacts feed an update or a comment, and its repository. */
export function sourceRun(inputs: ActionInputs): { runId: number; repo: RepoRef } {
  return { runId: inputs.runId ?? workflowContext().runId, repo: inputs.repository ?? thisRepo() };
}

/** A workspace path as a repository path: relative, `/`-separated, normalized, never outside the repository. */
export function repositoryPath(file: string, input = 'baseline'): string {
  const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
  const relativePath = path.isAbsolute(file) ? path.relative(workspace, file) : file;
  const normalized = path.posix.normalize(relativePath.split(path.sep).join('/'));
  if (
    normalized === '.' ||
    normalized === '..' ||
    normalized.startsWith('../') ||
    path.posix.isAbsolute(normalized) ||
    /^[a-zA-Z]:/.test(normalized)
  ) {
    throw new UsageError(`'${input}' must be a file inside the repository, got '${file}'`);
  }
  return normalized;
}
