// What every Action mode shares: the work folder, this run and repository, and reading the inputs' evidence into a snapshot.
import * as core from '@actions/core';
import os from 'node:os';
import path from 'node:path';
import type { ActionInputs } from './inputs.js';
import { UsageError } from '../common/errors.js';
import { visible } from '../common/visible.js';
import { workflowContext, type RepoRef } from '../github/context.js';
import { collectSnapshot, type Collected } from '../parsers/collect.js';
import { noSpecs, SOURCES, type SpecsBySource } from '../parsers/evidence-sources.js';
import { describeSearches, resolveAllInputs } from '../sources/local.js';

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

  const searchHelp = "the README's Inputs section lists what a folder is searched for";
  // An input whose paths match nothing, while others found files, stops the run (or warns, with 'missing-artifacts: warn').
  const files = await resolveAllInputs(
    specs,
    root,
    (message) => core.warning(visible(message)),
    (source) => `'${source.input}'`,
    {
      unmatched: searchedByDefault ? 'ignore' : inputs.missingArtifacts,
      searchHelp,
    },
  );
  core.info(`Parsing ${SOURCES.map((s) => `${files[s.name]?.length ?? 0} ${s.label} file(s)`).join(', ')}`);
  const collected = await collectSnapshot({
    files,
    searched: describeSearches(specs, (source) => `'${source.input}'`),
    searchHelp,
    // Sources may write paths relative to the checkout (allocation sites, when their frames lie in it).
    run: { checkout: workspace },
  });
  for (const n of collected.notes) core.warning(visible(`${n.file}:${n.line}: ${n.reason}`));
  // A few examples, not one per record: GitHub keeps 10 warning annotations per step, and the verdict's warnings come later.
  const examples = collected.skippedRecords.slice(0, SKIPPED_RECORD_WARNINGS);
  for (const r of examples) core.warning(`${visible(`${r.file}:${r.line}: ${r.reason}`)} (skipped)`);
  const more = collected.snapshot.meta.skipped - examples.length;
  if (more > 0) core.warning(`${more} more malformed record(s) skipped`);
  // This runner as a node of the run, with its environment, when asked ('collect-environment', 'environment').
  const { parseEnvironmentPairs, withThisNode } = await import('../sources/node-environment.js');
  const snapshot = await withThisNode(
    collected.snapshot,
    {
      env: process.env,
      extra: parseEnvironmentPairs(inputs.environment, "'environment'"),
      collect: inputs.collectEnvironment || inputs.mode === 'snapshot',
    },
    (line) => core.info(line),
  );
  return { ...collected, snapshot, missingArtifacts };
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
