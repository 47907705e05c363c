/**
 * The dashboard (`history html`) in a real browser: headless Chromium opens the page from disk. Nothing runs in it (no
 * script, the HTML report's CSP), names from files are text, the section tabs switch panels with no script (a harness
 * copy with a script of its own clicks them and reads the computed style), each run's point says its commit and run on
 * hover, and at 400 px the page has no horizontal scroll.
 *
 * Skipped, with the reason printed, only where no Chromium can be had (none packaged for this machine, none installed).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyHistory } from '../../src/history/format.js';
import { appendPoint } from '../../src/history/store.js';
import { trendsOf } from '../../src/history/trends.js';
import { buildHistoryView } from '../../src/report/history-view.js';
import { renderDashboard } from '../../src/report/dashboard.js';
import { HTML_CSP } from '../../src/report/html.js';
import { chromium, dumpDom } from '../helpers/chromium.js';
import { MiB } from '../helpers/story.js';

if (chromium.path === null) console.warn(`dashboard-browser.test.ts: skipping the browser tests: ${chromium.reason}`);

const work = mkdtempSync(join(tmpdir(), 'dashboard-browser-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const HOSTILE = 'dev0/<img src=x onerror="document.title=`pwned`">';

/** 24 runs: HCCL steps at run 13 with CANN 9.0, the baseline changes at run 18; a kernel with a hostile name. */
function page(): string {
  const history = emptyHistory({ branch: 'main', gate: 'default', commitUrl: 'https://github.com/o/r/commit/{sha}' });
  for (let n = 1; n <= 24; n++) {
    const modules = new Map<string, number>();
    for (let d = 0; d < 8; d++) {
      modules.set(`DEV_MEM/dev${d}/HCCL`, (n <= 12 ? 400 : 800) * MiB);
      modules.set(`DEV_MEM/dev${d}/APP`, (2000 + (n % 5) * 3) * MiB);
    }
    appendPoint(
      history,
      {
        commit: (0xa1b2c3 * n).toString(16).padStart(40, '0'),
        run: String(500 + n),
        time: `2026-04-${String(n).padStart(2, '0')}T10:00:00Z`,
        baseline: n < 18 ? null : `sha256:${'1'.repeat(64)}`,
        environment: { cann: n <= 12 ? '8.3.RC1' : '9.0.RC1' },
      },
      {
        keys: new Map([
          ['modules', modules],
          ['kernels', new Map([[HOSTILE, 4096 * n]])],
        ]),
        rollups: new Map(),
        devices: 8,
      },
    );
  }
  return renderDashboard(buildHistoryView(history, trendsOf(history)));
}

const titleOf = (dom: string): string | undefined => /<title>([^<]*)<\/title>/.exec(dom)?.[1];

describe.skipIf(chromium.path === null)('the dashboard in Chromium', () => {
  const html = page();
  const file = join(work, 'dashboard.html');
  writeFileSync(file, html);

  it('runs nothing and loads nothing: no script, the CSP of the HTML report, a hostile name stays text', async () => {
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">`);
    expect(html).not.toMatch(/<script|javascript:/i);
    const dom = await dumpDom(file);
    expect(titleOf(dom)).toBe('Memory history');
    expect(dom).not.toContain('<img');
    // A kernel on one device is drawn as its key group.
    expect(dom).toContain('<code>*/&lt;img src=x onerror="document.title=`pwned`"&gt;</code>');
  });

  it('each point says its commit, run, time and value on hover and links to its commit; markers say what changed', async () => {
    const dom = await dumpDom(file);
    expect(dom).toContain(
      `<a href="https://github.com/o/r/commit/${(0xa1b2c3 * 13).toString(16).padStart(40, '0')}"><circle class="point step"`,
    );
    expect(dom).toMatch(
      /<title>[0-9a-f]{7} · run 513 · 2026-04-13T10:00:00Z: 800\.0 MiB \(first run of the new level\)<\/title>/,
    );
    expect(dom).toMatch(/<title>environment changed at [0-9a-f]{7}: cann 8\.3\.RC1 → 9\.0\.RC1<\/title>/);
    expect(dom).toMatch(/<title>baseline updated at [0-9a-f]{7}<\/title>/);
  });

  it('the section tabs switch panels with no script of the page (a harness copy clicks them)', async () => {
    const harness = join(work, 'tabs.html');
    const probe = `<script>
      const shown = () => ['modules', 'kernels'].map((s) => getComputedStyle(document.getElementById('panel-' + s)).display).join(',');
      const before = shown();
      document.querySelector('label[for="tab-kernels"]').click();
      document.title = before + ' then ' + shown();
    </script>`;
    writeFileSync(
      harness,
      html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '').replace('</body>', `${probe}</body>`),
    );
    expect(titleOf(await dumpDom(harness))).toBe('block,none then none,block');
  });

  it('at 400 px the page has no horizontal scroll', async () => {
    const harness = join(work, 'narrow.html');
    // A viewport 400 px wide, set over CDP: the page itself is laid out at 400 px (innerWidth says so).
    const probe = '<script>document.title = document.documentElement.scrollWidth + " " + window.innerWidth;</script>';
    writeFileSync(
      harness,
      html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '').replace('</body>', `${probe}</body>`),
    );
    const [scroll, inner] = (titleOf(await dumpDom(harness, 400, 900)) ?? '').split(' ').map(Number);
    expect(inner).toBe(400);
    expect(scroll).toBeLessThanOrEqual(inner as number);
  });
});
