// Natural key collation: the order in which section keys are sorted, compared and written (dev2 before dev10).
//
// Exactly the order of `Intl.Collator('en', {numeric: true})`; a fast path over printable ASCII decides most pairs with
// a copy of ICU's rank table, so most runs never build a collator.

/**
 * Orders keys so that dev2 sorts before dev10 and the table reads naturally: exactly the order of
 * `Intl.Collator('en', {numeric: true})`, which it falls back to whenever its fast path for printable ASCII cannot decide.
 */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const fast = compareAsciiKeys(a, b);
  if (fast !== undefined) return fast;
  return (keyCollator ??= checkedCollator()).compare(a, b);
}

/**
 * The order of a section's keys in files: compareKeys, and code-unit order where it sees a tie (`dev1` and `dev01` are
 * the same number to it), so that the same keys are written in the same order whatever order they were merged in.
 */
export function fileKeyOrder(a: string, b: string): number {
  return compareKeys(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

// One collator for all comparisons: localeCompare builds one per call, 3 s for 100k keys. Built on first use, which
// most runs never reach: the first collator of a process costs ~10 ms on Node 20 and ~50 ms on Node 24 (ICU's data).
let keyCollator: Intl.Collator | undefined;

/**
 * The collator's primary order of the printable ASCII characters 0x20-0x7e, as primaryRanks derives it from ICU (the
 * same in ICU 78.2 of Node 20 and 78.3 of Node 24): a letter and its capital share a rank (they differ only at the
 * tertiary level, which the fast path leaves to the collator); digits rank as the number group. Written out so that a
 * run whose keys the fast path orders alone never builds a collator; a test and checkedCollator compare it with ICU's.
 */
export const ASCII_PRIMARY_RANKS: Int16Array = Int16Array.from([
  ...new Array<number>(0x20).fill(-1),
  0,
  6,
  10,
  22,
  32,
  23,
  21,
  9,
  11,
  12,
  18,
  26,
  3,
  2,
  8,
  19,
  33,
  34,
  35,
  36,
  37,
  38,
  39,
  40,
  41,
  42,
  5,
  4,
  27,
  28,
  29,
  7,
  17,
  43,
  44,
  45,
  46,
  47,
  48,
  49,
  50,
  51,
  52,
  53,
  54,
  55,
  56,
  57,
  58,
  59,
  60,
  61,
  62,
  63,
  64,
  65,
  66,
  67,
  68,
  13,
  20,
  14,
  25,
  1,
  24,
  43,
  44,
  45,
  46,
  47,
  48,
  49,
  50,
  51,
  52,
  53,
  54,
  55,
  56,
  57,
  58,
  59,
  60,
  61,
  62,
  63,
  64,
  65,
  66,
  67,
  68,
  15,
  30,
  16,
  31,
  -1,
]);

/**
 * The numeric collator, after checking that this ICU ranks printable ASCII as `table` (the fast path's) says. If it
 * does not, the fast path and the collator could disagree within one sort, so the run stops rather than write keys in
 * an order that depends on how they arrived.
 */
export function checkedCollator(table: Int16Array = ASCII_PRIMARY_RANKS): Intl.Collator {
  const derived = primaryRanks();
  if (derived.some((rank, c) => rank !== table[c])) {
    throw new Error(
      `this Node.js's ICU ${process.versions.icu ?? '(unknown version)'} orders ASCII characters differently from ascend-memory-gate's built-in table; run the gate with the Node.js version its Action declares, and report this`,
    );
  }
  return new Intl.Collator('en', { numeric: true });
}

/** The collator's primary ranks of printable ASCII, derived from ICU (what ASCII_PRIMARY_RANKS holds). */
export function primaryRanks(): Int16Array {
  const base = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  const chars = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).sort(base.compare);
  const ranks = new Int16Array(0x80).fill(-1);
  let rank = 0;
  for (let i = 0; i < chars.length; i++) {
    if (i > 0 && base.compare(chars[i - 1] as string, chars[i] as string) !== 0) rank++;
    ranks[(chars[i] as string).charCodeAt(0)] = rank;
  }
  return ranks;
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isPrintable = (c: number): boolean => c >= 0x20 && c <= 0x7e;

/**
 * The collator's answer when a primary (base-letter or number) difference decides it, reading only printable ASCII up
 * to that difference; undefined when it cannot tell (no primary difference: the keys differ only in case or leading
 * zeros; another character; a control character), and the collator decides. `i` and `j` walk `a` and `b`: they part
 * after numbers that are equal but written with different leading zeros (`_07f` against `_7d`).
 */
function compareAsciiKeys(a: string, b: string): number | undefined {
  const ranks = ASCII_PRIMARY_RANKS;
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && j < b.length) {
      const c = a.charCodeAt(i);
      if (c !== b.charCodeAt(j)) break;
      if (!isPrintable(c)) return undefined;
      i++;
      j++;
    }
    // In a number (the common part ends in a digit, or a digit differs), the whole digit runs compare by value.
    const ca = i < a.length ? a.charCodeAt(i) : -1;
    const cb = j < b.length ? b.charCodeAt(j) : -1;
    if ((i > 0 && isDigit(a.charCodeAt(i - 1))) || isDigit(ca) || isDigit(cb)) {
      // The digits right before i and j were read in step, so they are the same on both sides.
      let back = 0;
      while (i - back > 0 && isDigit(a.charCodeAt(i - back - 1))) back++;
      const startA = i - back;
      const startB = j - back;
      let endA = i;
      while (endA < a.length && isDigit(a.charCodeAt(endA))) endA++;
      let endB = j;
      while (endB < b.length && isDigit(b.charCodeAt(endB))) endB++;
      // A run that goes on in another script's digits (full-width, Arabic-Indic), or past an ignorable control
      // character, may be one longer number to the collator.
      if (
        (endA < a.length && !isPrintable(a.charCodeAt(endA))) ||
        (endB < b.length && !isPrintable(b.charCodeAt(endB)))
      )
        return undefined;
      if (endA > startA && endB > startB && (endA > i || endB > j)) {
        const order = compareDigitRuns(a, startA, endA, b, startB, endB);
        if (order !== undefined) return order;
        // The same number (leading zeros differ): the collator reads on after it, and so does this.
        i = endA;
        j = endB;
        continue;
      }
      // One side has no digit here: a number against a character (or the end) ranks like its first digit.
      if (endA === startA && endB > startB) return rankAgainst(ca, ranks);
      if (endB === startB && endA > startA) {
        const flipped = rankAgainst(cb, ranks);
        return flipped === undefined ? undefined : -flipped;
      }
      // Both runs end here: the numbers are equal and identical, the characters after them decide.
    }
    if (ca === -1 || cb === -1) {
      // One key ends first: the shorter sorts first when the longer goes on with a printable character.
      const next = ca === -1 ? cb : ca;
      if (!isPrintable(next)) return undefined;
      return ca === -1 ? -1 : 1;
    }
    if (!isPrintable(ca) || !isPrintable(cb)) return undefined;
    const ra = ranks[ca] as number;
    const rb = ranks[cb] as number;
    if (ra !== rb) return ra < rb ? -1 : 1;
    // A letter against its capital: the collator weighs case only when no primary difference follows anywhere in the
    // keys (`Add_7` sorts after `aclnnAdd`: c before d), so read on. Kernel names mix cases (aclnn…, Add_…, MatMul…);
    // stopping here built the collator, and ~1,300 of its comparisons, in every run that held such names.
    i++;
    j++;
  }
}

/** A non-digit character (or the end, -1) against a number, which ranks with the digits: the sign, or undefined. */
function rankAgainst(c: number, ranks: Int16Array): number | undefined {
  if (c === -1) return -1;
  if (!isPrintable(c)) return undefined;
  return (ranks[c] as number) < (ranks[0x30] as number) ? -1 : 1;
}

/** Two digit runs by value (leading zeros ignored); undefined when the values are equal (the collator breaks that tie). */
function compareDigitRuns(
  a: string,
  startA: number,
  endA: number,
  b: string,
  startB: number,
  endB: number,
): number | undefined {
  while (startA < endA - 1 && a.charCodeAt(startA) === 0x30) startA++;
  while (startB < endB - 1 && b.charCodeAt(startB) === 0x30) startB++;
  const lengthA = endA - startA;
  const lengthB = endB - startB;
  if (lengthA !== lengthB) return lengthA < lengthB ? -1 : 1;
  for (let k = 0; k < lengthA; k++) {
    const d = a.charCodeAt(startA + k) - b.charCodeAt(startB + k);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return undefined;
}
