// The plog general path: a record's lines decoded and read by the grammar's regexes, whatever their spelling.
//
// Also where a skipped record gets its reason, an inexact value stops the run, and a failure gets its site.
import { InputError, ParseError } from '../../common/errors.js';
import { deviceName } from '../../model/sections/keys.js';
import { modules, type ModuleMetric } from '../../model/sections/index.js';
import { MAX_SITES_PER_DEVICE, type AllocFailureSite, type SnapshotBuilder } from '../../model/snapshot.js';
import { parseExactInteger } from '../../model/units.js';
import {
  ALLOC_FAILURE,
  BODY_CACHED,
  BODY_V0,
  BODY_V1,
  FAILURE_DEVICE,
  FAILURE_TEXT_CHARS,
  HEAD,
  HEAD_AT_START,
  SEGMENT,
  UNKNOWN_DEVICE,
} from './grammar.js';
import { RecordWindow, type NewlinesBefore } from './window.js';

/** Reads whole records out of the window into the snapshot; the fast path (fast-record.ts) builds on it. */
export class RecordReader extends RecordWindow {
  /** Failure lines per device in this file so far: the first MAX_SITES_PER_DEVICE get a site. */
  private readonly sitedFailures = new Map<string, number>();
  /** The file's end when its last line has no newline (a writer killed mid-record), else -1. */
  protected cutEnd = -1;
  /** The record being read ends at cutEnd: a record skipped now was cut off, not malformed. */
  private readingCut = false;

  constructor(
    readonly name: string,
    protected readonly into: SnapshotBuilder,
    newlinesBefore: NewlinesBefore,
  ) {
    super(newlinesBefore);
  }

  /**
   * Joins the record's lines with spaces (keeping offsets) and reads each `[LEVEL] X(` segment on its own. `anchored`:
   * the record starts where a record starts, so an attribute word right at its start is one (a prefix cut off).
   */
  protected readRecord(start: number, end: number, anchored: boolean): void {
    this.readingCut = end === this.cutEnd;
    const text = this.buf.toString('latin1', start - this.bufStart, end - this.bufStart).replace(/[\r\n]/g, ' ');
    let segmentStart = 0;
    let level: string | null = null;
    SEGMENT.lastIndex = 0;
    for (let m = SEGMENT.exec(text); m !== null; m = SEGMENT.exec(text)) {
      if (m.index > segmentStart)
        this.readSegment(
          text.slice(segmentStart, m.index),
          level,
          start + segmentStart,
          anchored && segmentStart === 0,
        );
      segmentStart = m.index;
      level = m[1] as string;
    }
    this.readSegment(text.slice(segmentStart), level, start + segmentStart, anchored && segmentStart === 0);
  }

  private readSegment(text: string, level: string | null, at: number, anchored: boolean): void {
    const head = anchored ? HEAD_AT_START : HEAD;
    head.lastIndex = 0;
    for (let m = head.exec(text); m !== null; m = head.exec(text)) {
      const attr = m[1] as string;
      const device = m[2] === undefined ? null : deviceOf(m[2]);
      if (device === null && m[2] !== undefined) {
        this.skip(at, `device number out of range in memory-statistics record: ${excerpt(text, m.index + 1)}`);
        continue;
      }
      const prefix = device === null ? attr : `${attr}/${device}`;
      const bodyAt = head.lastIndex;
      let parsed: { module: string; metric: ModuleMetric } | null;
      if (m[3] === undefined) parsed = this.readCached(text, bodyAt, at);
      else parsed = this.readStats(text, bodyAt, at);
      if (parsed === null) {
        this.skip(at, `truncated or malformed memory-statistics record: ${excerpt(text, m.index + 1)}`);
        continue;
      }
      this.into.records++;
      this.into.add(modules, `${prefix}/${parsed.module}`, parsed.metric);
      if (device !== null) this.into.noteDevice(device);
    }
    if ((level === 'ERROR' || level === 'ERR0R') && ALLOC_FAILURE.test(text)) {
      const d = FAILURE_DEVICE.exec(text);
      const digits = d === null ? null : (d[1] ?? d[2] ?? d[3] ?? null);
      const device = (digits === null ? null : deviceOf(digits)) ?? UNKNOWN_DEVICE;
      // Where: for the first failures per device of each file (the builder keeps the first by file and line, whatever
      // order files come in, and those are among them). A one-off line count, not a count of every later newline.
      const sited = this.sitedFailures.get(device) ?? 0;
      this.sitedFailures.set(device, sited + 1);
      const where =
        sited < MAX_SITES_PER_DEVICE && this.siteMayBeKept(device)
          ? { file: this.name, line: this.lineAt(at, false), text: excerpt(text, 0, FAILURE_TEXT_CHARS) }
          : undefined;
      this.into.addAllocFailure(device, 1, where);
    }
  }

  /**
   * Whether a failure site from this file could still be among the builder's first MAX_SITES_PER_DEVICE by file and
   * line: not when it already holds that many, all from this file or files before it. Its line number (a count of
   * every newline before it) is then not worth computing.
   */
  private siteMayBeKept(device: string): boolean {
    const kept = this.into.allocFailureSitesOf(device);
    if (kept === undefined || kept.length < MAX_SITES_PER_DEVICE) return true;
    return (kept[kept.length - 1] as AllocFailureSite).file > this.name;
  }

  private readStats(text: string, from: number, at: number): { module: string; metric: ModuleMetric } | null {
    BODY_V1.lastIndex = from;
    const v1 = BODY_V1.exec(text);
    if (v1 !== null) {
      const module = v1[1] as string;
      if (v1[7] !== undefined) {
        const total = this.exact(v1[7], 'total_size', at);
        return { module, metric: { peak: total, current: total, allocs: null, frees: null } };
      }
      return {
        module,
        metric: {
          current: this.exact(v1[2] as string, 'current_alloced_size', at),
          peak: this.exact(v1[4] as string, `${v1[3] as string}_peak_size`, at),
          allocs: this.exact(v1[5] as string, 'alloc_cnt', at),
          frees: this.exact(v1[6] as string, 'free_cnt', at),
        },
      };
    }
    BODY_V0.lastIndex = from;
    const v0 = BODY_V0.exec(text);
    if (v0 === null) return null;
    return {
      module: v0[1] as string,
      metric: {
        current: this.exact(v0[2] as string, 'current_alloced_size', at),
        peak: this.exact(v0[3] as string, 'alloced_peak_size', at),
        allocs: null,
        frees: null,
      },
    };
  }

  private readCached(text: string, from: number, at: number): { module: string; metric: ModuleMetric } | null {
    BODY_CACHED.lastIndex = from;
    const m = BODY_CACHED.exec(text);
    if (m === null) return null;
    const size = this.exact(m[1] as string, 'Cached_size', at);
    return { module: 'CACHED', metric: { peak: size, current: size, allocs: null, frees: null } };
  }

  /** The one case that stops the run: a byte count above 2^53 - 1 cannot be compared exactly, and rounding would lie. */
  private exact(digits: string, field: string, at: number): number {
    let value: number | null;
    try {
      value = parseExactInteger(digits, this.name);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      this.fail(
        at,
        `${field}=${digits} is larger than 2^53 - 1 and cannot be compared exactly; no result is better than a rounded one`,
      );
    }
    // The body regexes only capture digits, so parseExactInteger cannot return null here.
    return value as number;
  }

  private skip(at: number, reason: string): void {
    this.into.addSkipped({
      file: this.name,
      line: this.lineAt(at),
      reason,
      ...(this.readingCut ? { cut: true as const } : {}),
    });
  }

  private fail(at: number, reason: string): never {
    throw new ParseError(this.name, this.lineAt(at), reason);
  }
}

/** The start of a record for a message: one line, bounded, whitespace collapsed, UTF-8 decoded again. */
function excerpt(text: string, from: number, chars = 120): string {
  const s = Buffer.from(text.slice(from, from + chars), 'latin1')
    .toString('utf8')
    .replace(/\s+/g, ' ')
    .trim();
  return from + chars < text.length ? `${s}…` : s;
}

/** A device number as every parser names it (`03` → `dev3`), or null when it is too long to be one. */
function deviceOf(digits: string): string | null {
  return digits.replace(/^0+(?=\d)/, '').length > 9 ? null : deviceName(digits);
}
