// The plog record grammar: record limits, the words that start a record, the regexes for heads, bodies and failures.

/** A wrapped record is reassembled over at most this many physical lines... */
export const MAX_RECORD_LINES = 64;
/** ...and this many bytes, so that garbage without `[LEVEL]` prefixes cannot grow a record without bound. */
export const MAX_RECORD_BYTES = 16 * 1024;
/** A physical line longer than this is cut where the buffer ends: no newline for megabytes is garbage, not a log. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** The newline byte: lines, and so records, end at it. */
export const NL = 0x0a;

/** Level words as they start a line, `ERR0R` being a damaged paste's `ERROR`; each is followed by `]`. */
export const LEVEL_WORDS: readonly Buffer[] = ['ERROR', 'ERR0R', 'WARNING', 'INFO', 'DEBUG', 'EVENT', 'TRACE'].map(
  (level) => Buffer.from(`${level}]`),
);
/** Tags that start a record pasted with its level and `DRV(...)` prefix cut off. */
export const CUT_PREFIX_TAGS: readonly Buffer[] = ['[devmm]', '[drv]', '[ascend]'].map((tag) => Buffer.from(tag));
/** A line that starts at the attribute word, its prefix cut off: `DEV_MEM dev0 Mem stats`, `HOST_MEM Cached_size:`. */
export const ATTRIBUTE_START = /^[A-Z][A-Z0-9_]*[ \t]+(?:dev\d+[ \t]+)?(?:[Mm]em[ \t]+stats|Cached_size\b)/;
/** `grep -n` output: `<path>:<line>:` (or `<line>:` for one file) before the line itself. */
export const GREP_PREFIX = /:\d+:/g;
/** How far into a line a `grep -n` prefix (a path) may reach. */
export const MAX_GREP_PREFIX_BYTES = 1024;

/** `[LEVEL] MODULE(`: where a plog line, or a line glued onto another one, begins; damaged pastes lose the `[`. */
export const SEGMENT = /\[?(ERROR|ERR0R|WARNING|INFO|DEBUG|EVENT|TRACE)\]\s*[A-Za-z][A-Za-z0-9_-]*\(/g;

// The driver prints the attribute right after its `[function]` tag; anchoring on `]` (or on the start of a record whose
// prefix was cut, or on a `grep -n` prefix's `:`) keeps a word cut by a wrap ("DEV_" + "MEM") from passing as an attribute.
export const HEAD = /[\]:]\s*([A-Z][A-Z0-9_]*)\s+(?:dev(\d+)\s+)?(?:([Mm]em\s+stats\s*\(Bytes\))|Cached_size\b)/g;
/** HEAD, also at the start of a record whose prefix was cut off (only where a record surely starts). */
export const HEAD_AT_START = new RegExp(HEAD.source.replace('[\\]:]', '(?:^|[\\]:])'), 'g');
/** v1/v2/v3 body: `. (module_name=X; module_id=N; current…; alloc(ated)_peak_size…; alloc_cnt…; free_cnt…)` or `total_size=N)`. */
export const BODY_V1 =
  /\.\s*\(\s*module_name\s*=\s*([A-Z][A-Z0-9_]*)\s*;\s*module_id\s*=\s*\d+\s*;\s*(?:current_alloced_size\s*=\s*(\d+)\s*;\s*(alloced|allocated)_peak_size\s*=\s*(\d+)\s*;\s*alloc_cnt\s*=\s*(\d+)\s*;\s*free_cnt\s*=\s*(\d+)|total_size\s*=\s*(\d+))\s*\)/y;
/** v0 body: `: module_name=X, module_id=N current_alloced_size=N, alloced_peak_size=N.` (no comma after module_id). */
export const BODY_V0 =
  /\s*:\s*module_name\s*=\s*([A-Z][A-Z0-9_]*)\s*,\s*module_id\s*=\s*\d+\s*,?\s*current_alloced_size\s*=\s*(\d+)\s*,\s*alloced_peak_size\s*=\s*(\d+)\s*\./y;
/** v2 `HOST_MEM Cached_size:12582912Bytes`: the unit is required, so a line cut inside the number never passes. */
export const BODY_CACHED = /\s*:\s*(\d+)\s*Bytes\b/y;

// Conservative on purpose: only ERROR lines, and only the driver's own failure, an explicit "out of memory", or the
// framework's error code for a failed allocation (EL0004).
export const ALLOC_FAILURE = /\bhalMemAlloc\s+failed\b|\bout\s+of\s+memory\b|\bMemory_Allocation_Failure\b|\bEL0004\b/i;
/**
 * device_id=N (or `device_id N` in a damaged paste), deviceId=N, drvDevId=N, devId=N, dev_id=N, device N / device(N) /
 * device[N], devN / dev N: the first one wins.
 */
export const FAILURE_DEVICE =
  /(?:\b|drv_?)(?:device_?id|dev_?id)\s*[=:]?\s*(\d+)|\bdevice\s*[=:([]?\s*(\d+)|\bdev\s?(\d+)\b/i;
/** A failure site's text is cut to this many characters and an ellipsis: the 300 the snapshot keeps. */
export const FAILURE_TEXT_CHARS = 299;
/** An allocation failure that names no device is still an out-of-memory signal: it is counted under this name. */
export const UNKNOWN_DEVICE = 'unknown';
