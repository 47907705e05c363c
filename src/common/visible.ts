// Makes control and invisible characters visible, for every message and report that shows text read from a file.

/**
 * C0 controls, DEL, C1 controls, line/paragraph separators, zero-width and bidi-override characters, lone surrogates:
 * each would break a table row, drive a terminal (ESC) or make one key look like another (Trojan Source).
 */
const INVISIBLE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ud800-\udfff]/gu;

/** Shows invisible and control characters: `\n` → `␊`, ESC → `␛`, U+202E → `⟨U+202E⟩`. */
export function replaceControlCharacters(text: string): string {
  return text.replace(INVISIBLE, (ch) => {
    const code = ch.charCodeAt(0);
    // C0 controls and DEL have one-column "control pictures" (U+2400…U+2421); the rest get their code point.
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
  });
}

/** Control and invisible characters made visible, as the reports show them; newlines kept when asked (a stack). */
export function visible(text: string, keepNewlines = false): string {
  return keepNewlines ? text.split('\n').map(replaceControlCharacters).join('\n') : replaceControlCharacters(text);
}
