// Headless Chromium for browser tests: Debian's `chromium` (installed by .ci/run), a fresh profile per run, killed with its helpers on timeout.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll } from 'vitest';

// ───────────────────────────── Chromium ─────────────────────────────

/** One run's budget; the whole file stays well under 30 s (each run takes about a second). */
const RUN_TIMEOUT_MS = 20_000;

export function findChromium(): { path: string | null; reason: string } {
  let path: string;
  try {
    path = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8', timeout: 5_000 }).trim();
  } catch {
    return { path: null, reason: "no 'chromium' on PATH (bash .ci/run installs Debian's chromium package when it can)" };
  }
  try {
    execFileSync(path, ['--version'], { stdio: 'ignore', timeout: 15_000 });
  } catch (error) {
    return { path: null, reason: `${path} --version failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { path, reason: '' };
}

export const chromium = findChromium();

const work = mkdtempSync(join(tmpdir(), 'html-browser-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let runs = 0;

/**
 * Runs Chromium headless on a file with a fresh profile and returns its stdout. It is started in its own process
 * group, so a timeout kills the browser and every helper process it forked, and nothing outlives the run.
 */
export function runChromium(args: string[], file: string, windowSize = '1200,900'): Promise<string> {
  const browser = chromium.path;
  if (browser === null) throw new Error(chromium.reason);
  const profile = join(work, `profile-${++runs}`);
  const flags = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${profile}`,
    `--window-size=${windowSize}`,
    '--hide-scrollbars',
    '--force-device-scale-factor=1',
    // Colours in the screenshot are the CSS colours, not a monitor profile's version of them.
    '--force-color-profile=srgb',
    ...args,
    pathToFileURL(file).href,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(browser, flags, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`chromium ${args.join(' ')} took over ${RUN_TIMEOUT_MS} ms and was killed`));
    }, RUN_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      killGroup();
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      killGroup();
      if (code === 0) resolve(Buffer.concat(stdout).toString('utf8'));
      else reject(new Error(`chromium exited with ${code}: ${Buffer.concat(stderr).toString('utf8').slice(-2000)}`));
    });
  });
}

/** Pages narrower than Chromium lays a window out (scripts/narrow-page.mjs, shared with screenshots.mjs). */
export { atWidth } from '../../scripts/narrow-page.mjs';
