// Headless Chromium for the browser tests (scripts/browser.mjs: the build from npm, else a system one): one browser per
// test file, started on first use and closed with the file; a tab per page at the viewport the test asks for.
import { writeFileSync } from 'node:fs';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll } from 'vitest';
import { findChromium, launch, openPage, resultOf, settled } from '../../scripts/browser.mjs';

/** The browser, or why there is none (one line: the test file prints it and skips). */
export const chromium = await findChromium();

let started: Promise<Browser> | undefined;
afterAll(async () => {
  if (started !== undefined) await (await started).close();
});

function browser(): Promise<Browser> {
  if (chromium.path === null) throw new Error(chromium.reason);
  started ??= launch(chromium);
  return started;
}

/** Opens `file` at `width` × `height`, runs `use` on the tab, and closes it. */
async function withPage<T>(file: string, width: number, height: number, use: (page: Page) => Promise<T>): Promise<T> {
  const page = await openPage(await browser(), file, width, height);
  try {
    return await use(page);
  } finally {
    await page.close();
  }
}

/** The DOM of `file` after its load event, serialized as --dump-dom prints it. */
export function dumpDom(file: string, width = 1200, height = 900): Promise<string> {
  return withPage(file, width, height, async (page) => {
    await settled(page);
    return page.content();
  });
}

/** What the page's script wrote into `<pre id="result">` (waited for). */
export function pageResult(file: string, width = 1200, height = 900): Promise<string> {
  return withPage(file, width, height, (page) => resultOf(page));
}

/** A PNG of the viewport, `width` × `height` px, once every frame the load started is painted. */
export function screenshot(file: string, png: string, width = 1200, height = 900): Promise<void> {
  return withPage(file, width, height, async (page) => {
    await settled(page);
    writeFileSync(png, await page.screenshot({ type: 'png' }));
  });
}
