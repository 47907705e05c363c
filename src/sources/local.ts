// Finds input files on disk from paths, directories and glob patterns, the same way for the CLI and the Action.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { UsageError } from '../errors.js';
import type { InputFile } from './types.js';

export type InputKind = 'plog' | 'compare';

/** What a directory is searched for, per kind of input. */
const DIRECTORY_PATTERNS: Record<InputKind, string[]> = {
  plog: ['**/*.log'],
  compare: ['**/memory_compare_*.csv', '**/stepintercompare_*.csv'],
};

/** Splits an input list given as one string, newline- or comma-separated, as Action inputs are. */
export function splitList(value: string): string[] {
  return value
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Resolves files, directories (searched recursively for the kind's file names) and glob patterns
 * to a sorted, de-duplicated list. A path that does not exist, or a pattern that matches nothing,
 * is a usage error: a typo must not turn into an empty, passing run.
 */
export async function resolveInputs(specs: readonly string[], kind: InputKind, cwd = process.cwd()): Promise<InputFile[]> {
  const found = new Map<string, InputFile>();
  const add = (abs: string) => {
    if (!found.has(abs)) found.set(abs, { path: abs, name: displayName(abs, cwd) });
  };

  for (const spec of specs) {
    const abs = path.resolve(cwd, spec);
    const info = await stat(abs).catch(() => null);
    if (info?.isFile()) {
      add(abs);
    } else if (info?.isDirectory()) {
      for (const file of await searchDirectory(abs, kind)) add(file);
    } else if (isDynamicPattern(spec)) {
      const matches = await glob(spec, { cwd, absolute: true, onlyFiles: false, dot: true, followSymbolicLinks: true });
      if (matches.length === 0) throw new UsageError(`${kind === 'plog' ? '--plog' : '--compare'} pattern '${spec}' matches no file`);
      for (const match of matches.sort()) {
        const m = await stat(match).catch(() => null);
        if (m?.isDirectory()) for (const file of await searchDirectory(match, kind)) add(file);
        else if (m?.isFile()) add(path.resolve(match));
      }
    } else {
      throw new UsageError(`${kind === 'plog' ? '--plog' : '--compare'} path '${spec}' does not exist (looked in ${cwd})`);
    }
  }
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function searchDirectory(dir: string, kind: InputKind): Promise<string[]> {
  const files = await glob(DIRECTORY_PATTERNS[kind], { cwd: dir, absolute: true, onlyFiles: true, dot: true, followSymbolicLinks: true });
  return files.map((f) => path.resolve(f));
}

/** Paths under the working directory are shown relative to it, with forward slashes. */
function displayName(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return abs;
  return rel.split(path.sep).join('/');
}

/** What was searched, for the "no record found" message. */
export function describeSearch(specs: readonly string[], kind: InputKind): string {
  return `${specs.map((s) => `'${s}'`).join(', ')} (${DIRECTORY_PATTERNS[kind].join(', ')} in directories)`;
}

/** Both kinds of input, as one phrase: "plog 'a' (…) and memory_compare 'b' (…)". */
export function describeSearches(plogSpecs: readonly string[], compareSpecs: readonly string[]): string {
  return [
    plogSpecs.length ? `plog ${describeSearch(plogSpecs, 'plog')}` : '',
    compareSpecs.length ? `memory_compare ${describeSearch(compareSpecs, 'compare')}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
}
