// Allocation sites: which frame of a stack is the user's code, and how a site is written (`file:line function`).
import type { PickleValue } from './pickle-reader.js';

/** The site of blocks with no frame of user code: allocated before recording started, on the autograd thread, or by torch alone. */
export const UNKNOWN_SITE = '<unknown>';

const STDLIB = /\/lib\/python\d+\.\d+\//;

/**
 * Not user code: no file (`??`, missing), a pseudo-file (`<frozen runpy>`, `<eval_with_key>.3`), not Python (a C++
 * frame of stacks="all"), the torch or torch_npu package, or Python's standard library. Other installed packages
 * (torchvision, torchair, megatron) are user code: they are what the user chose to run.
 */
function isInternalFrame(filename: string): boolean {
  if (filename === '' || filename === '??' || filename.startsWith('<') || !filename.endsWith('.py')) return true;
  if (filename.includes('/torch/') || filename.includes('/torch_npu/')) return true;
  return STDLIB.test(filename) && !filename.includes('site-packages/');
}

/** A frame of user code: its file and its site; null for an internal frame. */
type UserFrame = { filename: string; site: { site: string; frame: SiteFrame | null } } | null;

/**
 * Per frame dict, worked out once: torch_npu shares frame dicts between many frames lists, and a hostile file can share
 * one with a long filename between thousands of them (2 bytes each), which would cost the filename's length each time.
 */
const userFrames = new WeakMap<object, UserFrame>();

function userFrame(frame: PickleValue): UserFrame {
  if (!(frame instanceof Map)) return null;
  let known = userFrames.get(frame);
  if (known !== undefined) return known;
  const filename = frame.get('filename');
  if (typeof filename !== 'string' || isInternalFrame(filename)) known = null;
  else {
    const line = frame.get('line');
    const name = frame.get('name');
    const fn = typeof name === 'string' ? name : '';
    known = {
      filename,
      site: {
        site: `${filename}:${typeof line === 'number' || typeof line === 'bigint' ? String(line) : '0'} ${fn}`,
        frame: {
          file: filename,
          line: typeof line === 'number' && Number.isSafeInteger(line) ? line : 0,
          name: fn.replaceAll(' ', '_'),
        },
      },
    };
  }
  userFrames.set(frame, known);
  return known;
}

/** Adds the files of every user-code frame of a frames list to `into` (for the common directory of a file's user code). */
export function addUserFiles(frames: PickleValue | undefined, into: Set<string>): void {
  if (!Array.isArray(frames)) return;
  for (const frame of frames) {
    const user = userFrame(frame);
    if (user !== null) into.add(user.filename);
  }
}

/** An installed package's path is written from the package on: its site-packages folder differs between machines. */
const PACKAGES = /^.*\/(?:site|dist)-packages\//s;

/**
 * A site's file as keys hold it: a package's from the package on (`torchvision/models/resnet.py`), others relative to
 * `root` (a folder ending in `/`), or absolute when outside it. Returns the folder the path is now relative to ('' for
 * an absolute path).
 */
export function relativeFile(file: string, root: string | null): { file: string; codeRoot: string } {
  const pkg = PACKAGES.exec(file);
  if (pkg !== null) return { file: file.slice(pkg[0].length), codeRoot: pkg[0] };
  if (root !== null && file.startsWith(root)) return { file: file.slice(root.length), codeRoot: root };
  return { file, codeRoot: '' };
}

/** The same for a line site (`<filename>:<line> <function>`, as OOM notes name holders); `<unknown>` stays. */
export function relativeSite(site: string, root: string | null): { site: string; codeRoot: string } {
  const m = SITE.exec(site);
  if (m === null || site === UNKNOWN_SITE) return { site, codeRoot: '' };
  const { file, codeRoot } = relativeFile(m[1] as string, root);
  return { site: file + site.slice((m[1] as string).length), codeRoot };
}

/** `<filename>:<line> <function>`, as siteOf writes it (and how earlier versions keyed allocation sites: by line). */
export const SITE = /^(.*):(-?\d+) (.*)$/s;

/**
 * `<file> <function>`, an allocation site's key after its device: a user frame's file always ends in `.py`, so the
 * file is everything up to the last `.py ` (a function name has no space), and a line site never matches (`.py:212 `).
 */
export const FUNCTION_SITE = /^(.*\.py) ([^ ]*)$/s;

/** The frame a line site names: file, line and function (null for `<unknown>`). */
export interface SiteFrame {
  file: string;
  line: number;
  name: string;
}

/** The longest folder (ending in `/`) that holds every file, packages left out; null when they share none but `/`. */
export function commonFolder(files: Iterable<string>): string | null {
  let common: string | null = null;
  for (const file of files) {
    if (!file.startsWith('/') || PACKAGES.test(file)) continue;
    if (common === null) common = file.slice(0, file.lastIndexOf('/') + 1);
    while (common !== '' && !file.startsWith(common))
      common = common.slice(0, common.lastIndexOf('/', common.length - 2) + 1);
  }
  return common === null || common === '' || common === '/' ? null : common;
}

/** Sites of the frames lists seen: torch_npu shares one list between a block's alloc and free entries, and frame dicts everywhere. */
const siteCache = new WeakMap<object, { site: string; frame: SiteFrame | null }>();

const UNKNOWN = { site: UNKNOWN_SITE, frame: null };

/**
 * The site of a frames list (innermost call first): its first frame of user code, `<filename>:<line> <name>`, and
 * that frame's parts (a name's spaces become `_`: keys split file from function at the last space).
 */
export function siteOf(frames: PickleValue | undefined): { site: string; frame: SiteFrame | null } {
  if (!Array.isArray(frames)) return UNKNOWN;
  const cached = siteCache.get(frames);
  if (cached !== undefined) return cached;
  let site: { site: string; frame: SiteFrame | null } = UNKNOWN;
  for (const frame of frames) {
    const user = userFrame(frame);
    if (user === null) continue;
    // The frame's own string: every list sharing the frame gives the same site object (one hash, no copy).
    site = user.site;
    break;
  }
  siteCache.set(frames, site);
  return site;
}
