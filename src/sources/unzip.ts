// Extracts an artifact zip entry by entry, refusing any name that would land outside the destination (zip-slip).
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

export interface ExtractResult {
  files: number;
  /** Entry names that were not written because they are absolute or climb out with `..`. */
  refused: string[];
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

export async function extractZipSafely(zipPath: string, destination: string): Promise<ExtractResult> {
  const root = path.resolve(destination);
  await mkdir(root, { recursive: true });
  const zip = await openZip(zipPath);
  const result: ExtractResult = { files: 0, refused: [] };

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
      const inside = target === root || target.startsWith(root + path.sep);
      if (reason !== null || !inside) {
        result.refused.push(name);
        zip.readEntry();
        return;
      }
      if (name.endsWith('/')) {
        mkdir(target, { recursive: true }).then(() => zip.readEntry(), fail);
        return;
      }
      zip.openReadStream(entry, (err, stream) => {
        if (err) return fail(err);
        mkdir(path.dirname(target), { recursive: true })
          .then(() => pipeline(stream, createWriteStream(target)))
          .then(() => {
            result.files++;
            zip.readEntry();
          }, fail);
      });
    });
    zip.readEntry();
  });
  return result;
}
