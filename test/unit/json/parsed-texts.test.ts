// Large parsed texts are freed by one full collection before the gate builds its entries; small runs make none.
import { describe, expect, it } from 'vitest';
import { noteParsedText, releaseParsedTexts, RELEASE_MIN_CHARS } from '../../../src/json/parsed-texts.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('releaseParsedTexts', () => {
  it('collects nothing below the threshold; one full collection once enough text was parsed, then counts from zero', async () => {
    noteParsedText(RELEASE_MIN_CHARS - 1);
    expect(releaseParsedTexts()).toBe(false);
    // A WeakRef's target stays alive until the end of the job that made it: drop it, then let a turn pass.
    let ref: WeakRef<object> | undefined;
    (() => {
      ref = new WeakRef({ text: 'x'.repeat(1 << 20).split('') });
    })();
    await nextTurn();
    noteParsedText(1);
    expect(releaseParsedTexts()).toBe(true);
    expect(ref?.deref()).toBeUndefined();
    expect(releaseParsedTexts()).toBe(false);
    // This context's globals are untouched: only the new context the collector came from has `gc`.
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
