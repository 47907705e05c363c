// Allocation sites: which frame of a stack is the user's code, and how a site is written (`file:line function`).
import type { PickleValue } from './pickle-reader.js';
import type { WorkBudget } from './work-budget.js';

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

const UNKNOWN = { site: UNKNOWN_SITE, frame: null };

/** A site: its name (`<filename>:<line> <name>`) and its frame (null for `<unknown>`). */
type Site = { site: string; frame: SiteFrame | null };

/** A frame of user code: its file and its site; null for an internal frame. */
type UserFrame = { filename: string; site: Site } | null;

/**
 * Sites of one file's frames, each worked out once: torch_npu shares frame dicts between many frames lists and a
 * frames list between an allocation's entries, and a hostile file can share one long filename between thousands of
 * distinct frame dicts (2 bytes each). So a filename is looked at once (is it user code?), a site is named once per
 * file, line and function (the same string object for every frame naming it: one hash, no copy), and what naming a
 * site costs is charged to the file's work budget.
 */
export class SiteNames {
  private readonly frameDicts = new WeakMap<object, UserFrame>();
  private readonly framesLists = new WeakMap<object, Site>();
  /** Per filename (strings are at most 4,096 characters: the reader keeps no longer): user code, and its sites. */
  private readonly files = new Map<string, Map<string, Map<string, Site>> | null>();

  constructor(private readonly work: WorkBudget) {}

  /**
   * The site of a frames list (innermost call first): its first frame of user code, `<filename>:<line> <name>`, and
   * that frame's parts (a name's spaces become `_`: keys split file from function at the last space).
   */
  siteOf(frames: PickleValue | undefined): Site {
    if (!Array.isArray(frames)) return UNKNOWN;
    const cached = this.framesLists.get(frames);
    if (cached !== undefined) return cached;
    let site: Site = UNKNOWN;
    for (const frame of frames) {
      this.work.charge(1, 'naming allocation sites');
      const user = this.userFrame(frame);
      if (user === null) continue;
      site = user.site;
      break;
    }
    this.framesLists.set(frames, site);
    return site;
  }

  /** Adds the files of every user-code frame of a frames list to `into` (for the common folder of a file's user code). */
  addUserFiles(frames: PickleValue | undefined, into: Set<string>): void {
    if (!Array.isArray(frames)) return;
    this.work.charge(frames.length, 'naming allocation sites');
    for (const frame of frames) {
      const user = this.userFrame(frame);
      if (user !== null) into.add(user.filename);
    }
  }

  private userFrame(frame: PickleValue): UserFrame {
    if (!(frame instanceof Map)) return null;
    let known = this.frameDicts.get(frame);
    if (known !== undefined) return known;
    known = null;
    const filename = frame.get('filename');
    const sites = typeof filename === 'string' ? this.sitesIn(filename) : null;
    if (typeof filename === 'string' && sites !== null) {
      const line = frame.get('line');
      const name = frame.get('name');
      const fn = typeof name === 'string' ? name : '';
      const lineText = typeof line === 'number' || typeof line === 'bigint' ? String(line) : '0';
      let byName = sites.get(lineText);
      if (byName === undefined) sites.set(lineText, (byName = new Map()));
      let site = byName.get(fn);
      if (site === undefined) {
        // A new site's name is built (and later hashed) once: its length is what it costs.
        this.work.charge(2 * (filename.length + lineText.length + fn.length), 'naming allocation sites');
        site = {
          site: `${filename}:${lineText} ${fn}`,
          frame: {
            file: filename,
            line: typeof line === 'number' && Number.isSafeInteger(line) ? line : 0,
            name: fn.replaceAll(' ', '_'),
          },
        };
        byName.set(fn, site);
      }
      known = { filename, site };
    }
    this.frameDicts.set(frame, known);
    return known;
  }

  /** A filename's sites by line and function; null when it is no user code (looked at once per filename). */
  private sitesIn(filename: string): Map<string, Map<string, Site>> | null {
    let sites = this.files.get(filename);
    if (sites === undefined) {
      this.work.charge(4 * filename.length, 'naming allocation sites');
      sites = isInternalFrame(filename) ? null : new Map();
      this.files.set(filename, sites);
    }
    return sites;
  }
}
