// Finds input files on disk from paths, directories and glob patterns, the same way for the CLI and the Action.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { UsageError } from '../errors.js';
import { evidenceSource, SOURCES, type SpecsBySource } from '../parsers/sources.js';
import type { InputFile } from './types.js';

/** An evidence source's name (src/parsers/sources.ts): what a directory is searched for. */
export type InputKind = string;

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
      if (matches.length === 0) throw new UsageError(`--${evidenceSource(kind).option} pattern '${spec}' matches no file`);
      for (const match of matches.sort()) {
        const m = await stat(match).catch(() => null);
        if (m?.isDirectory()) for (const file of await searchDirectory(match, kind)) add(file);
        else if (m?.isFile()) add(path.resolve(match));
      }
    } else {
      throw new UsageError(`--${evidenceSource(kind).option} path '${spec}' does not exist (looked in ${cwd})`);
    }
  }
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function searchDirectory(dir: string, kind: InputKind): Promise<string[]> {
  const files = await glob([...evidenceSource(kind).directoryPatterns], { cwd: dir, absolute: true, onlyFiles: true, dot: true, followSymbolicLinks: true });
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
  return `${specs.map((s) => `'${s}'`).join(', ')} (${evidenceSource(kind).directoryPatterns.join(', ')} in directories)`;
}

/** Every source's inputs, as one phrase: "plog 'a' (…) and memory_compare 'b' (…)". */
export function describeSearches(specs: SpecsBySource): string {
  return SOURCES.filter((source) => (specs[source.name] ?? []).length > 0)
    .map((source) => `${source.label} ${describeSearch(specs[source.name] ?? [], source.name)}`)
    .join(' and ');
}

/** Resolves every source's specs (see resolveInputs) into its files. */
export async function resolveAllInputs(specs: SpecsBySource, cwd = process.cwd()): Promise<Record<string, InputFile[]>> {
  const files: Record<string, InputFile[]> = {};
  for (const source of SOURCES) files[source.name] = await resolveInputs(specs[source.name] ?? [], source.name, cwd);
  return files;
}
