// Headless Chromium from npm for the browser tests and screenshots.mjs: the build packaged in @sparticuz/chromium (x64
// Linux), else CHROMIUM or a system chromium, driven over CDP with puppeteer-core at a real viewport width.
import { execFileSync } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { createBrotliDecompress } from 'node:zlib';
import puppeteer from 'puppeteer-core';

const require = createRequire(import.meta.url);

/**
 * Chromium's flags: no sandbox (containers run as root), no GPU, and nothing that reaches the network (the network
 * is closed where the tests run; a browser that tries waits on it). Each launch gets a fresh --user-data-dir.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--hide-scrollbars',
  '--mute-audio',
  '--allow-file-access-from-files',
  // Colours in a screenshot are the CSS colours, not a monitor profile's version of them.
  '--force-color-profile=srgb',
];

/** The packaged build: @sparticuz/chromium's brotli files, unpacked once into node_modules/.cache (npm ci empties it). */
async function packagedChromium() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return {
      path: null,
      reason: `@sparticuz/chromium packages Chromium for x64 Linux only, not ${process.platform}-${process.arch}`,
    };
  }
  let dir;
  let bin;
  let version;
  try {
    // Its package.json is not among its exports: the folder above build/ is the package.
    dir = dirname(require.resolve('@sparticuz/chromium'));
    while (
      !existsSync(join(dir, 'package.json')) ||
      JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== '@sparticuz/chromium'
    ) {
      if (dirname(dir) === dir) throw new Error('no package.json');
      dir = dirname(dir);
    }
    bin = join(dir, 'bin');
    version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return { path: null, reason: '@sparticuz/chromium is not installed (npm ci installs it)' };
  }
  const root = join(dir, '..', '..', '.cache', 'ascend-memory-gate', `chromium-${version}`);
  const path = join(root, 'chromium');
  const lib = join(root, 'lib');
  const fontsConf = join(root, 'fonts.conf');
  if (!existsSync(join(root, 'ready'))) {
    // Unpacked into a folder of this process's own and renamed into place: test files that start together never
    // run a half-written binary (a second unpacking is wasted work, never a broken one).
    mkdirSync(dirname(root), { recursive: true });
    const work = mkdtempSync(`${root}.unpacking-`);
    try {
      await pipeline(
        createReadStream(join(bin, 'chromium.br')),
        createBrotliDecompress(),
        createWriteStream(join(work, 'chromium'), { mode: 0o755 }),
      );
      // NSS and expat for the binary (what @sparticuz/chromium unpacks on Amazon Linux), and a font (Open Sans).
      for (const tar of ['al2023.tar.br', 'fonts.tar.br']) {
        await pipeline(
          createReadStream(join(bin, tar)),
          createBrotliDecompress(),
          createWriteStream(join(work, 'unpack.tar')),
        );
        execFileSync('tar', ['-xf', join(work, 'unpack.tar'), '-C', work]);
      }
      rmSync(join(work, 'unpack.tar'));
      writeFileSync(join(work, 'ready'), `${version}\n`);
      try {
        renameSync(work, root);
      } catch (error) {
        // Another process got there first: its copy is as good.
        if (!existsSync(join(root, 'ready'))) throw error;
      }
    } catch (error) {
      rmSync(work, { recursive: true, force: true });
      return {
        path: null,
        reason: `cannot unpack @sparticuz/chromium ${version} into ${root}: ${error instanceof Error ? error.message : String(error)}`,
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  // The system's fonts where it has any, and the packaged Open Sans where it has none.
  writeFileSync(
    fontsConf,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n  <dir>${join(root, 'fonts')}</dir>\n  <cachedir>${join(root, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
  );
  const env = {
    LD_LIBRARY_PATH: [lib, ...(process.env.LD_LIBRARY_PATH ?? '').split(delimiter).filter(Boolean)].join(delimiter),
    FONTCONFIG_FILE: fontsConf,
  };
  return { path, env, source: `@sparticuz/chromium ${version}` };
}

/** A browser found by name: CHROMIUM, else chromium, chromium-browser or google-chrome on PATH. */
function systemChromium() {
  const names = process.env.CHROMIUM ? [process.env.CHROMIUM] : ['chromium', 'chromium-browser', 'google-chrome'];
  for (const name of names) {
    const dirs = name.includes('/') ? [''] : (process.env.PATH ?? '').split(delimiter).filter(Boolean);
    for (const dir of dirs) {
      const path = dir === '' ? name : join(dir, name);
      if (existsSync(path)) return { path, env: {}, source: path };
    }
  }
  return {
    path: null,
    reason: process.env.CHROMIUM ? `CHROMIUM=${process.env.CHROMIUM} is not a file` : `no ${names.join(', ')} on PATH`,
  };
}

/** Does this browser start and answer over CDP? null when it does, else why not. */
async function starts(found) {
  try {
    const browser = await launch(found);
    await browser.close();
    return null;
  } catch (error) {
    return `${found.source} does not start: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
  }
}

let found;

/**
 * The browser to use: CHROMIUM when set, else the packaged one, else a system one (aarch64, where the package has no
 * build). `{ path: null, reason }` when there is none: the reason is one line for a skipped test to print.
 */
export async function findChromium() {
  if (found !== undefined) return found;
  const candidates = [];
  if (process.env.CHROMIUM) candidates.push(systemChromium());
  else candidates.push(await packagedChromium(), systemChromium());
  const reasons = [];
  for (const candidate of candidates) {
    if (candidate.path === null) {
      reasons.push(candidate.reason);
      continue;
    }
    const failure = await starts(candidate);
    if (failure === null) return (found = candidate);
    reasons.push(failure);
  }
  return (found = { path: null, reason: reasons.join('; ') });
}

/** Starts `found` headless with a fresh profile (removed on close). */
export async function launch(found) {
  const profile = mkdtempSync(join(tmpdir(), 'amg-chromium-profile-'));
  let browser;
  try {
    browser = await puppeteer.launch({
      executablePath: found.path,
      ignoreDefaultArgs: true,
      args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`],
      pipe: true,
      waitForInitialPage: false,
      env: { ...process.env, ...found.env },
      timeout: 60_000,
      protocolTimeout: 120_000,
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const close = browser.close.bind(browser);
  browser.close = async () => {
    try {
      await close();
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  };
  return browser;
}

/**
 * A new tab showing `file` in a viewport `width` × `height` CSS pixels (set over CDP: a real 400 px layout, where
 * headless Chromium's windows are never laid out under 500 px), at scale 1, after its load event.
 */
export async function openPage(browser, file, width, height = 900) {
  const page = await browser.newPage();
  await page.setViewport({ width, height, deviceScaleFactor: 1 });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 60_000 });
  return page;
}

/** Waits for `<pre id="result">` to be written (a measuring script's answer), then returns its text. */
export async function resultOf(page, timeout = 30_000) {
  await page.waitForFunction(() => (document.getElementById('result')?.textContent ?? '') !== '', {
    timeout,
    polling: 50,
  });
  return page.$eval('#result', (element) => element.textContent ?? '');
}

/** Two animation frames: whatever the load event started is laid out and painted. */
export async function settled(page) {
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(undefined)))),
  );
}
