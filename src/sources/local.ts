// Finds input files on disk from paths, directories and glob patterns, the same way for the CLI and the Action.
import fs, { realpathSync, statSync, type Dirent, type PathLike, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { glob, isDynamicPattern, type GlobOptions } from 'tinyglobby';
import { fileSystemFailure, UsageError } from '../common/errors.js';
import { evidenceSource, SOURCES, type EvidenceSource, type SpecsBySource } from '../parsers/evidence-sources.js';
import type { InputFile } from './types.js';

/** An evidence source's name (src/parsers/evidence-sources.ts): what a directory is searched for. */
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
 * to a sorted, de-duplicated list: each physical file once, by its real path (a symlink loop or two links to one
 * file must not count it twice). A path that does not exist, an empty path (an unset variable), a pattern that
 * matches nothing, or a FIFO, socket or device given by name is a usage error: a typo must not turn into an empty,
 * passing run, nor into a run that reads everything or waits forever.
 */
export async function resolveInputs(
  specs: readonly string[],
  kind: InputKind,
  cwd = process.cwd(),
  onWarning: (message: string) => void = (message) => process.emitWarning(message),
  flag = `--${evidenceSource(kind).option}`,
): Promise<InputFile[]> {
  const failed: UnreadableFolder[] = [];
  const { found, add } = fileList(cwd, flag);

  // `!GLOB` leaves out what the other paths find (relative to the working folder, or absolute).
  const exclusions = specs.filter((spec) => spec.startsWith('!'));
  const included = specs.filter((spec) => !spec.startsWith('!'));
  if (exclusions.length > 0 && included.length === 0) {
    throw new UsageError(`${flag} '${exclusions[0]}' only excludes: give the files, folders or globs to read too`);
  }
  for (const spec of included) {
    if (spec.trim() === '') {
      throw new UsageError(
        `${flag} was given an empty path (an unset variable?): name a file, a folder or a glob ('.' for the working folder)`,
      );
    }
    const abs = path.resolve(cwd, spec);
    let info: Stats | null = null;
    try {
      info = await stat(abs);
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        throw new UsageError(`${flag} ${fileSystemFailure(error) ?? String(error)}`);
    }
    if (info?.isDirectory()) {
      for (const file of await searchDirectory(abs, kind, failed)) add(file, false);
    } else if (info !== null) {
      add(abs, true);
    } else if (isDynamicPattern(spec)) {
      const matches = await glob(spec, {
        cwd,
        absolute: true,
        onlyFiles: false,
        dot: true,
        followSymbolicLinks: true,
        fs: recordingFs(failed),
      });
      if (matches.length === 0) throw new UsageError(`${flag} pattern '${spec}' matches no file`);
      for (const match of matches.sort()) {
        const m = await stat(match).catch(() => null);
        if (m?.isDirectory()) for (const file of await searchDirectory(match, kind, failed)) add(file, false);
        else if (m?.isFile()) add(path.resolve(match), false);
      }
    } else {
      throw new UsageError(`${flag} path '${spec}' does not exist (looked in ${cwd})`);
    }
  }
  warnUnreadableFolders(failed, flag, cwd, onWarning);
  const kept = exclusions.length === 0 ? found : leaveOut(found, exclusions, cwd);
  const sorted = kept.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (exclusions.length > 0) excludedCounts.set(sorted, { count: found.length - kept.length, by: exclusions });
  return sorted;
}

/** The files found so far, and the one way to add to them (`add`, below); `flag` names the input in its error. */
function fileList(cwd: string, flag: string): { found: InputFile[]; add: (abs: string, named: boolean) => void } {
  const found: InputFile[] = [];
  /** Files listed so far by device and inode, their real paths looked up only when a second path reaches the inode. */
  const byInode = new Map<string, { abs: string; real?: string }[]>();
  /** Files that could not be stat'ed, by real path (or as given): listed once, their parser says why they cannot be read. */
  const unreadable = new Set<string>();
  /**
   * Adds a regular file once per real path; anything else found by a search is skipped (a FIFO would block the parse).
   * One stat per file: a file is looked up by its inode, and only a second path to the same inode costs the real
   * paths (a symlink, or a hard link, which is a file of its own). realpath on every file was ~30 ms of reading 4,096
   * node snapshots. Synchronous calls: awaiting two promise round trips per file made 100,000 files take 20 s instead of 1.
   */
  const add = (abs: string, named: boolean): void => {
    let info: Stats | null = null;
    try {
      info = statSync(abs, { throwIfNoEntry: false }) ?? null;
    } catch {
      // Listed: its parser reports why it cannot be read.
    }
    if (info === null) {
      const real = realPathOr(abs);
      if (unreadable.has(real)) return;
      unreadable.add(real);
      found.push({ path: abs, name: displayName(abs, cwd) });
      return;
    }
    if (!info.isFile()) {
      if (named) throw new UsageError(`${flag} '${abs}' is ${fileKind(info)}, not a regular file`);
      return;
    }
    const inode = `${info.dev}:${info.ino}`;
    const listed = byInode.get(inode);
    if (listed === undefined) byInode.set(inode, [{ abs }]);
    else {
      const real = realPathOr(abs);
      for (const other of listed) if ((other.real ??= realPathOr(other.abs)) === real) return;
      listed.push({ abs, real });
    }
    found.push({ path: abs, name: displayName(abs, cwd), size: info.size });
  };
  return { found, add };
}

/** One warning per folder a search could not read: its files are not read. */
function warnUnreadableFolders(
  failed: readonly UnreadableFolder[],
  flag: string,
  cwd: string,
  onWarning: (message: string) => void,
): void {
  for (const folder of failed) {
    const why = fileSystemFailure(folder.error)?.replace(/^.*?: cannot \w+ it: /, '') ?? folder.error.message;
    onWarning(
      `${flag}: cannot read the folder '${displayName(path.resolve(cwd, folder.path), cwd)}': ${why}; any input files in it are not read`,
    );
  }
}

/** How many files a list's `!` exclusions left out, for the message when none is left. */
const excludedCounts = new WeakMap<InputFile[], { count: number; by: readonly string[] }>();

/**
 * The files no exclusion matches. `!ex/old/**` and `!**\/old/**` are globs over the path relative to the working
 * folder (`./` dropped), `!/abs/path/**` over the absolute path; a pattern that names a folder leaves out all below it.
 */
function leaveOut(files: InputFile[], exclusions: readonly string[], cwd: string): InputFile[] {
  const matchers = exclusions.map((spec) => {
    const pattern = spec
      .slice(1)
      .replace(/^(\.\/)+/, '')
      .replace(/\/+$/, '');
    const absolute = path.isAbsolute(pattern);
    const glob = absolute ? pattern.split(path.sep).join('/') : pattern;
    const matches = picomatch([glob, `${glob}/**`], { dot: true, windows: false });
    return (file: InputFile): boolean => {
      const abs = file.path.split(path.sep).join('/');
      const rel = path.relative(cwd, file.path).split(path.sep).join('/');
      // A file outside the working folder is matched by its absolute path, so that `!**/old/**` still reaches it.
      return matches(absolute ? abs : rel.startsWith('../') || path.isAbsolute(rel) ? abs.replace(/^\/+/, '') : rel);
    };
  });
  return files.filter((file) => !matchers.some((m) => m(file)));
}
/** The path with every symlink resolved, or the path as given when that fails (its parser then says why). */
function realPathOr(abs: string): string {
  try {
    return realpathSync.native(abs);
  } catch {
    return abs;
  }
}

function fileKind(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isDirectory()) return 'a folder';
  return 'not a regular file';
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

/** A folder that could not be listed during a search: its files are not read. */
interface UnreadableFolder {
  path: string;
  error: NodeJS.ErrnoException;
}

/**
 * node:fs for the glob walker, with every folder it fails to list recorded: the walker itself skips such a folder in
 * silence, and a rank whose logs folder is unreadable would vanish from the gate.
 */
function recordingFs(failed: UnreadableFolder[]): NonNullable<GlobOptions['fs']> {
  const readdir = ((
    dir: PathLike,
    options: unknown,
    callback: (error: NodeJS.ErrnoException | null, entries: Dirent[]) => void,
  ) =>
    fs.readdir(dir, options as { withFileTypes: true }, (error, entries) => {
      if (error) failed.push({ path: String(dir), error });
      callback(error, entries);
    })) as unknown as typeof fs.readdir;
  return { readdir };
}

/** The patterns a folder is searched for: those of what it is when given itself (a PROF_* folder), else the source's. */
function patternsFor(dir: string, kind: InputKind): readonly string[] {
  const source = evidenceSource(kind);
  const name = path.basename(dir);
  const own = source.folderPatterns?.find((p) => picomatch.isMatch(name, p.folder, { dot: true }));
  return withCompressed(own?.patterns ?? source.directoryPatterns);
}

/** Each file pattern also as `.gz` and `.zst` (`**` + `/*.log.gz`): a compressed input is read like a plain one. Exclusions stay as they are. */
function withCompressed(patterns: readonly string[]): string[] {
  return [
    ...patterns.filter((p) => !p.startsWith('!')),
    ...patterns.filter((p) => !p.startsWith('!')).flatMap((p) => [`${p}.gz`, `${p}.zst`]),
    ...patterns.filter((p) => p.startsWith('!')),
  ];
}

async function searchDirectory(dir: string, kind: InputKind, failed: UnreadableFolder[]): Promise<string[]> {
  const files = await glob([...patternsFor(dir, kind)], {
    cwd: dir,
    absolute: true,
    onlyFiles: true,
    dot: true,
    followSymbolicLinks: true,
    fs: recordingFs(failed),
  });
  return files.map((f) => path.resolve(f));
}

/** Paths under the working directory are shown relative to it, with forward slashes. */
function displayName(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return abs;
  return rel.split(path.sep).join('/');
}

/** At most this many characters of paths in the "no input files found" message (each line stays under 300). */
const SEARCHED_CHARS = 160;

/**
 * What was searched, for the "no input files found" message: each path once, with the sources it was given for
 * (`'run' (--plog, --dump)`), cut after SEARCHED_CHARS with a count of the rest. The globs a folder is searched for
 * are in --help, not here: they made this one line ~900 characters.
 */
export function describeSearches(
  specs: SpecsBySource,
  nameOf: (source: EvidenceSource) => string = (s) => `--${s.option}`,
): string {
  const byPath = new Map<string, string[]>();
  for (const source of SOURCES) {
    for (const spec of specs[source.name] ?? []) {
      const names = byPath.get(spec) ?? [];
      if (!names.includes(nameOf(source))) names.push(nameOf(source));
      byPath.set(spec, names);
    }
  }
  const parts: string[] = [];
  let chars = 0;
  for (const [spec, names] of byPath) {
    const shown = spec.length > 80 ? `${spec.slice(0, 39)}…${spec.slice(-40)}` : spec;
    const part = `'${shown}' (${names.join(', ')})`;
    if (parts.length > 0 && chars + part.length > SEARCHED_CHARS) {
      parts.push(`${byPath.size - parts.length} more`);
      break;
    }
    parts.push(part);
    chars += part.length + 2;
  }
  return parts.join(', ');
}

/** Resolves every source's specs (see resolveInputs) into its files. */
export async function resolveAllInputs(
  specs: SpecsBySource,
  cwd = process.cwd(),
  onWarning?: (message: string) => void,
  flagOf: (source: EvidenceSource) => string = (source) => `--${source.option}`,
  options: { unmatched?: 'fail' | 'warn' | 'ignore'; searchHelp?: string } = {},
): Promise<Record<string, InputFile[]>> {
  const files: Record<string, InputFile[]> = {};
  for (const source of SOURCES)
    files[source.name] = await resolveInputs(specs[source.name] ?? [], source.name, cwd, onWarning, flagOf(source));
  // A flag that found nothing while another found files would be gated as if it had not been given: say so. (When none
  // found anything, collect says so with what was searched.)
  const found = SOURCES.some((source) => (files[source.name] ?? []).length > 0);
  for (const source of SOURCES) {
    const given = (specs[source.name] ?? []).filter((spec) => !spec.startsWith('!'));
    const list = files[source.name] ?? [];
    if (!found || given.length === 0 || list.length > 0 || options.unmatched === 'ignore') continue;
    const excluded = excludedCounts.get(list);
    const left =
      excluded === undefined || excluded.count === 0
        ? ''
        : ` (${excluded.count} left out by ${excluded.by.map((e) => `'${e}'`).join(', ')})`;
    const message = `${flagOf(source)} ${given.map((spec) => `'${spec}'`).join(' ')} matched no ${source.label} file${left}: check the path (${options.searchHelp ?? "'ascend-memory-gate --help' lists what a folder is searched for"}), or leave the flag out`;
    if (options.unmatched === 'warn') onWarning?.(message);
    else throw new UsageError(message);
  }
  return files;
}
