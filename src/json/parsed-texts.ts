// Frees the texts of large JSON documents (a 4,096-device baseline and run snapshot are ~25 MB each) once they are
// parsed, before the gate builds its entries on top of them.
//
// A text read whole is one large string, external or in V8's large-object space, and only a full (mark-compact)
// collection frees it. V8 runs none on its own between reading the two documents and the end of a 4,096-device
// `check`: the heap only grows after the one mark-compact it makes while the first document is parsed, and the peak
// holds both texts (49 MB), the parse's garbage and a young generation grown to its maximum. One full collection
// there, after both documents are parsed, took ~40-70 ms and lowered the peak RSS from ~293 to ~216 MiB.
//
// Node offers no call for it without a flag on its command line, which an Action (`runs: using: node24`) cannot
// pass: `--expose-gc` is set at run time, and only a new vm context gets its `gc` (this context's globals stay as
// they are). The flag is set only when a collection is due, so small runs never touch V8's flags.
import v8 from 'node:v8';
import vm from 'node:vm';

/** Below this many characters of parsed text since the last collection, no collection is made: it would free little. */
export const RELEASE_MIN_CHARS = 16 * 1024 * 1024;

let parsedChars = 0;
let collect: (() => void) | undefined;

/** Counts a document text that is parsed and then dropped (a snapshot's, a baseline's). */
export function noteParsedText(length: number): void {
  parsedChars += length;
}

/**
 * One full collection when at least RELEASE_MIN_CHARS of text were parsed since the last: call it once those texts
 * are no longer referenced. Returns whether it collected.
 */
export function releaseParsedTexts(): boolean {
  if (parsedChars < RELEASE_MIN_CHARS) return false;
  parsedChars = 0;
  fullCollection()();
  return true;
}

/** The `gc` function: the process's own under `node --expose-gc`, else one from a new context once the flag is set. */
function fullCollection(): () => void {
  if (collect === undefined) {
    const own = (globalThis as { gc?: unknown }).gc;
    if (typeof own === 'function') collect = own as () => void;
    else {
      v8.setFlagsFromString('--expose-gc');
      collect = vm.runInNewContext('gc') as () => void;
    }
  }
  return collect;
}
