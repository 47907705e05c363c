// Text laid out in terminal columns, for the reports and the CLI's help alike: display width, wrap, clip and cut, aligned tables.

/** Between the columns of a table. */
export const GAP = '  ';
/** The flex column (a key) of a table never gets narrower than this. */
export const MIN_FLEX_WIDTH = 12;
/** The flex column without a known width (a file, not a terminal): one long key cannot widen every row. */
const DEFAULT_FLEX_WIDTH = 60;

/** The `~hash` ending a shortened name (and the punctuation after it in a sentence): kept when the name is cut to a width. */
const SHORTENED_SUFFIX = /…[^]*(~[0-9a-f]{12}[:;,.)]?)$/;

/** Terminal columns of a string: East Asian wide characters and most emoji take two, combining marks none. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0xfe00 && cp <= 0xfe0f)) continue;
    width += isWide(cp) ? 2 : 1;
  }
  return width;
}

const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

function isWide(cp: number): boolean {
  return WIDE_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);
}

export function padEnd(text: string, w: number): string {
  return text + ' '.repeat(Math.max(0, w - displayWidth(text)));
}

export function padStart(text: string, w: number): string {
  return ' '.repeat(Math.max(0, w - displayWidth(text))) + text;
}

/** A line never wider than the width (a safety net: columns are sized to fit). */
export function clip(text: string, width: number): string {
  return displayWidth(stripAnsi(text)) <= width ? text : truncateEnd(text, width);
}

function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** `DEV_MEM/dev3/…/APP_LONG_NAME`: the start and the end of a key stay, the middle becomes `…`. */
export function truncateMiddle(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return '…'.slice(0, width);
  // A shortened name keeps its hash, the one that finds it in report.json and JUnit.
  const suffix = SHORTENED_SUFFIX.exec(text)?.[1];
  if (suffix !== undefined && width >= 2 * suffix.length)
    return `${truncateMiddle(text.slice(0, -suffix.length), width - suffix.length)}${suffix}`;
  const chars = [...text];
  const keep = width - 1;
  const headWidth = Math.ceil(keep / 2);
  let head = '';
  for (const ch of chars) {
    if (displayWidth(head + ch) > headWidth) break;
    head += ch;
  }
  let tail = '';
  for (let i = chars.length - 1; i >= 0; i--) {
    const next = (chars[i] as string) + tail;
    if (displayWidth(head) + displayWidth(next) + 1 > width) break;
    tail = next;
  }
  return `${head}…${tail}`;
}

export function truncateEnd(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  for (const ch of text) {
    if (displayWidth(out + ch) + 1 > width) break;
    out += ch;
  }
  return `${out}…`;
}

/**
 * Per key, where it starts to differ from the other keys: the longest prefix (in code points) it shares with any of
 * them. 0 for a key that shares none, or the only key.
 */
export function distinctFrom(keys: readonly string[]): number[] {
  const chars = keys.map((k) => [...k]);
  return chars.map((a, i) => {
    let longest = 0;
    chars.forEach((b, j) => {
      if (i === j || keys[i] === keys[j]) return;
      let n = 0;
      while (n < a.length && n < b.length && a[n] === b[n]) n++;
      if (n > longest) longest = n;
    });
    return longest;
  });
}

/** Where a word of a key starts: after a path, line or name separator. */
const WORD_BREAK = new Set(['/', ':', ' ', '.']);

/**
 * A key cut to the width so that the part where it differs from the other rows shows (`dev0/…:14 train_one_step`, not
 * five rows of `dev0/mem…ne_step`): the shared prefix gives way first, keeping the key's start; when what follows it
 * is too long too, its end is cut. A key that shares no prefix is cut in the middle.
 */
export function truncateDistinct(text: string, width: number, from: number): string {
  if (displayWidth(text) <= width) return text;
  const chars = [...text];
  if (from <= 0 || from >= chars.length || width < 3) return truncateMiddle(text, width);
  // Back to the start of the word the difference is in (`layer0.py`, not `0.py`; `:10`, not `0`), when that still fits.
  let start = from;
  let word = from;
  while (word > 0 && !WORD_BREAK.has(chars[word - 1] as string)) word--;
  const fits = (at: number): boolean => displayWidth(chars.slice(at).join('')) + 2 <= width;
  // From the word when it fits, else from the difference when that fits, else from the word with the end cut.
  if (fits(word) || !fits(from)) start = word;
  const tail = chars.slice(start).join('');
  if (displayWidth(tail) + 1 <= width) {
    // As much of the start as fits before the `…`.
    let head = '';
    for (const ch of chars.slice(0, start)) {
      if (displayWidth(head + ch) + 1 + displayWidth(tail) > width) break;
      head += ch;
    }
    return `${head}…${tail}`;
  }
  // What follows the shared part does not fit either: a short start, then as much of it as fits, cut at its end.
  let head = '';
  for (const ch of chars.slice(0, Math.min(start, Math.max(1, Math.floor(width / 4))))) {
    if (displayWidth(head + ch) + 2 > width) break;
    head += ch;
  }
  return `${head}${truncateEnd(`…${tail}`, width - displayWidth(head))}`;
}

/** Words wrapped to the width, the first line indented by `first`, the others by `rest`. */
export function indented(text: string, width: number, first: string, rest: string): string[] {
  return wrap(text, Math.max(1, width - first.length), ' '.repeat(Math.max(0, rest.length - first.length))).map(
    (line) => `${first}${line}`,
  );
}

/**
 * Words wrapped to the width in display columns, continuation lines indented. A word is what a single space between
 * two non-spaces separates (runs of spaces, as in an aligned column, stay inside a word); a word longer than a line is
 * cut in the middle, so no line is ever wider than the width.
 */
export function wrap(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/(?<=\S) (?=\S)/)) {
    const prefix = lines.length === 0 ? '' : indent;
    const candidate = current === '' ? `${prefix}${word}` : `${current} ${word}`;
    if (displayWidth(candidate) <= width) {
      current = candidate;
      continue;
    }
    if (current !== '') lines.push(current);
    current = truncateMiddle(`${indent}${word}`, width);
  }
  if (current !== '') lines.push(current);
  return lines;
}

const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

export function superscript(n: number): string {
  return [...String(n)].map((d) => SUPERSCRIPT_DIGITS[Number(d)] ?? d).join('');
}

export interface Column {
  header: string;
  align: 'left' | 'right';
}

export interface Cell {
  text: string;
  /** Applied after padding, so escape codes never count toward the width. */
  paint?: (padded: string) => string;
}

/**
 * Columns padded to their widest cell. The flex column (the key) is capped; a wider key is printed whole, ending its
 * line, and the row's remaining cells continue on the next line under their columns.
 */
export function alignedTable(
  columns: Column[],
  rows: Cell[][],
  layout: { flexColumn: number; width: number | undefined },
): string[] {
  const widths = columns.map((column, i) =>
    rows.reduce((w, row) => Math.max(w, displayWidth(row[i]?.text ?? '')), displayWidth(column.header)),
  );
  const others =
    widths.reduce((sum, w, i) => (i === layout.flexColumn ? sum : sum + w), 0) + GAP.length * (columns.length - 1);
  const cap = layout.width === undefined ? DEFAULT_FLEX_WIDTH : Math.max(MIN_FLEX_WIDTH, layout.width - others);
  // The column is as wide as the widest key that fits the cap: the keys that do not fit never widen it.
  const flexWidth = rows.reduce(
    (w, row) => {
      const keyWidth = displayWidth(row[layout.flexColumn]?.text ?? '');
      return keyWidth <= cap ? Math.max(w, keyWidth) : w;
    },
    displayWidth(columns[layout.flexColumn]?.header ?? ''),
  );
  widths[layout.flexColumn] = flexWidth;

  const pad = (text: string, i: number): string => {
    const fill = ' '.repeat(Math.max(0, (widths[i] ?? 0) - displayWidth(text)));
    return columns[i]?.align === 'right' ? fill + text : text + fill;
  };
  const line = (cells: Cell[], from: number, to: number): string =>
    cells
      .slice(from, to)
      .map((cell, j) => {
        const padded = pad(cell.text, from + j);
        return cell.paint ? cell.paint(padded) : padded;
      })
      .join(GAP);

  const out = [
    columns
      .map((c, i) => pad(c.header, i))
      .join(GAP)
      .trimEnd(),
  ];
  for (const cells of rows) {
    const flexCell = cells[layout.flexColumn];
    if (flexCell === undefined || displayWidth(flexCell.text) <= flexWidth) {
      out.push(line(cells, 0, cells.length).trimEnd());
      continue;
    }
    // The long key ends its line; the values continue below, each under its own column.
    const before = line(cells, 0, layout.flexColumn);
    out.push(`${before}${before ? GAP : ''}${flexCell.text}`);
    const indent = widths.slice(0, layout.flexColumn + 1).reduce((sum, w) => sum + w + GAP.length, 0);
    out.push(`${' '.repeat(indent)}${line(cells, layout.flexColumn + 1, cells.length)}`.trimEnd());
  }
  return out;
}
