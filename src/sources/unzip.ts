// Extracts an artifact zip entry by entry, refusing any name that would land outside the destination (zip-slip).
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { InputError } from '../common/errors.js';

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
    yauzl.open(zipPath, { lazyEntries: true, decodeStrings: false, autoClose: true }, (err, zip) => (err ? reject(err) : resolve(zip)));
  });
}

/**
 * Extracts every safe entry. With `maxBytes`, an archive whose entries add up to more is refused before that much is
 * written (a zip bomb in an untrusted upload must not fill the runner's disk); yauzl checks each entry's real size
 * against the size its header declares.
 */
export async function extractZipSafely(zipPath: string, destination: string, maxBytes = Number.POSITIVE_INFINITY): Promise<ExtractResult> {
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
    zip.on('error', fail);
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
        return fail(new InputError(`${path.basename(zipPath)} expands to more than ${maxBytes} bytes: refused`));
      }
      openTarget(target).then((handle) => {
        if (handle === null) return skip(result.collided);
        zip.openReadStream(entry, (err, stream) => {
          if (err) {
            void handle.close();
            return fail(err);
          }
          pipeline(stream, handle.createWriteStream())
            .then(() => {
              result.files++;
              zip.readEntry();
            }, fail);
        });
      }, fail);
    });
    zip.readEntry();
  });
  return result;
}
