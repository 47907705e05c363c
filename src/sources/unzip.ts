// Extracts an artifact zip entry by entry, refusing any name that would land outside the destination (zip-slip), and,
// for an untrusted upload, an archive that claims or inflates to more than it may.
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { InputError } from '../common/errors.js';
import { visible } from '../common/visible.js';
import { formatBytes } from '../model/units.js';

/**
 * An archive refused as untrusted input (not a zip, more than it may hold, sizes that lie, an entry that inflates too
 * far, corrupt data). `reason` says why in words that follow "was refused: ".
 */
export class ArchiveRefused extends InputError {
  constructor(readonly reason: string) {
    super(`refused: ${reason}`);
    this.name = 'ArchiveRefused';
  }
}

/** What an untrusted archive may expand to. */
export interface ExtractBounds {
  /** The entries' declared sizes may add up to this many bytes. */
  maxBytes?: number;
  /** An entry may inflate to this many times its compressed size, past its first MiB (real reports compress 23-47x). */
  maxInflation?: number;
}

/** Every entry may inflate this far whatever its ratio: a small file of repeated text compresses far past 100x. */
const INFLATION_ALLOWANCE = 1024 * 1024;

export interface ExtractResult {
  files: number;
  /** Entry names that were not written because they are absolute, climb out with `..` or name the folder itself. */
  refused: string[];
  /** Entry names that were not written because they collide with an earlier entry (a file where a folder is, or under a file). */
  collided: string[];
}

/** Errors that make one entry unwritable (a name that collides with an earlier entry), not the whole archive. */
const ENTRY_CONFLICTS = new Set(['EISDIR', 'ENOTDIR', 'EEXIST']);

function isEntryConflict(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && ENTRY_CONFLICTS.has(String(error.code));
}

/** Opens the entry's file, creating its folders; null when the name collides with an earlier entry. */
async function openTarget(target: string): Promise<FileHandle | null> {
  try {
    await mkdir(path.dirname(target), { recursive: true });
    return await open(target, 'w');
  } catch (error) {
    if (isEntryConflict(error)) return null;
    throw error;
  }
}

/** Why an entry name may not be written, or null when it is a plain relative path. */
export function unsafeEntryReason(name: string): string | null {
  if (name.length === 0) return 'empty name';
  if (name.includes('\0')) return 'NUL in name';
  if (name.includes('\\')) return 'backslash in name';
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return 'absolute path';
  if (name.split('/').some((segment) => segment === '..')) return "'..' segment";
  return null;
}

function openZip(zipPath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // decodeStrings off: yauzl would abort the whole archive on the first bad name; we skip that entry instead.
    yauzl.open(zipPath, { lazyEntries: true, decodeStrings: false, autoClose: true }, (err, zip) =>
      err ? reject(archiveError(err)) : resolve(zip),
    );
  });
}

/** A name from the archive, for a message: visible, and bounded (a name may be 64 KiB). */
function shownName(name: string): string {
  return `'${visible(name.length > 200 ? `${name.slice(0, 200)}…` : name)}'`;
}

/** File-system trouble (no space, no permission) is ours to report as it is; anything else yauzl or zlib says is the archive's fault. */
function isSystemError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}

/** yauzl's complaint about the archive as a whole. */
function archiveError(error: Error): Error {
  if (isSystemError(error)) return error;
  if (/^End of central directory record signature not found/.test(error.message))
    return new ArchiveRefused('it is not a zip archive, or it was cut short');
  return new ArchiveRefused(`it is not a valid zip archive (${visible(error.message)})`);
}

/** What went wrong reading one entry's bytes, in the archive's terms. */
function entryError(error: unknown, name: string): Error {
  if (error instanceof ArchiveRefused || !(error instanceof Error) || isSystemError(error))
    return error instanceof Error ? error : new Error(String(error));
  // yauzl compares each entry's bytes with the size its headers declare.
  const more = /^too many bytes in the stream\. expected (\d+)/.exec(error.message);
  if (more)
    return new ArchiveRefused(`its entry ${shownName(name)} holds more bytes than its header declares (${more[1]})`);
  const fewer = /^not enough bytes in the stream\. expected (\d+)/.exec(error.message);
  if (fewer)
    return new ArchiveRefused(`its entry ${shownName(name)} holds fewer bytes than its header declares (${fewer[1]})`);
  return new ArchiveRefused(`its entry ${shownName(name)} cannot be read (${visible(error.message)})`);
}

/**
 * Passes an entry's inflated bytes on until they exceed `ratio` times its compressed size (and the first MiB); the chunk
 * that would cross the line is never written.
 */
function inflationGuard(name: string, compressedSize: number, ratio: number): Transform {
  const limit = Math.max(INFLATION_ALLOWANCE, ratio * compressedSize);
  let inflated = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      inflated += chunk.length;
      if (inflated <= limit) return done(null, chunk);
      done(
        new ArchiveRefused(
          `its entry ${shownName(name)} inflates to more than ${ratio} times its compressed size (${formatBytes(compressedSize)}), stopped at ${formatBytes(limit)}`,
        ),
      );
    },
  });
}

/**
 * Extracts every safe entry. With `maxBytes`, an archive whose entries add up to more is refused before that much is
 * written (a zip bomb in an untrusted upload must not fill the runner's disk); yauzl checks each entry's real size
 * against the size its header declares. With `maxInflation`, an entry inflating past that ratio is refused as it
 * inflates, and what was written of it removed. Refusals are ArchiveRefused.
 */
export async function extractZipSafely(
  zipPath: string,
  destination: string,
  limits: ExtractBounds = {},
): Promise<ExtractResult> {
  const { maxBytes = Number.POSITIVE_INFINITY, maxInflation } = limits;
  const root = path.resolve(destination);
  await mkdir(root, { recursive: true });
  const zip = await openZip(zipPath);
  const result: ExtractResult = { files: 0, refused: [], collided: [] };
  let declaredBytes = 0;

  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      zip.close();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    zip.on('error', (error: Error) => fail(archiveError(error)));
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      const raw = entry.fileName as unknown as Buffer;
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
      const reason = unsafeEntryReason(name);
      const target = path.resolve(root, name);
      const isDirectory = name.endsWith('/');
      // A file must land strictly inside (an entry named `.` would be the folder itself); a folder entry may be it.
      const inside = target.startsWith(root + path.sep) || (isDirectory && target === root);
      const skip = (list: string[]) => {
        list.push(name);
        zip.readEntry();
      };
      if (reason !== null || !inside) return skip(result.refused);
      if (isDirectory) {
        mkdir(target, { recursive: true }).then(
          () => zip.readEntry(),
          (error: unknown) => (isEntryConflict(error) ? skip(result.collided) : fail(error)),
        );
        return;
      }
      declaredBytes += entry.uncompressedSize;
      if (declaredBytes > maxBytes) {
        return fail(new ArchiveRefused(`its entries declare more than ${formatBytes(maxBytes)}, the most allowed`));
      }
      openTarget(target).then((handle) => {
        if (handle === null) return skip(result.collided);
        zip.openReadStream(entry, (err, stream) => {
          if (err) {
            void handle.close();
            return fail(entryError(err, name));
          }
          const written =
            maxInflation === undefined
              ? pipeline(stream, handle.createWriteStream())
              : pipeline(stream, inflationGuard(name, entry.compressedSize, maxInflation), handle.createWriteStream());
          written.then(
            () => {
              result.files++;
              zip.readEntry();
            },
            // Nothing of a refused entry stays on disk.
            (error: unknown) => void rm(target, { force: true }).finally(() => fail(entryError(error, name))),
          );
        });
      }, fail);
    });
    zip.readEntry();
  });
  return result;
}
