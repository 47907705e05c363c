// Types of scripts/browser.mjs, so the TypeScript browser tests can import it.
import type { Browser, Page } from 'puppeteer-core';

export interface FoundChromium {
  path: string;
  env: Record<string, string>;
  source: string;
}
export interface NoChromium {
  path: null;
  reason: string;
}
export declare const CHROMIUM_FLAGS: string[];
export declare function findChromium(): Promise<FoundChromium | NoChromium>;
export declare function launch(found: FoundChromium): Promise<Browser>;
export declare function openPage(browser: Browser, file: string, width: number, height?: number): Promise<Page>;
export declare function resultOf(page: Page, timeout?: number): Promise<string>;
export declare function settled(page: Page): Promise<void>;
