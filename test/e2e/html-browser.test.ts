/**
 * The HTML report in a real browser: headless Chromium (from npm: test/helpers/chromium.ts) opens the file from disk,
 * and we check what a reviewer would see and that nothing ran.
 *
 * - the DOM after load has the chart's SVG rects, no element from a hostile module name, and an unchanged
 *   <title> (a name's `onerror` would set it to "pwned"); a control page proves the check would see a script run.
 * - a screenshot: the PNG (decoded here with node:zlib) shows the bars in the module colours, each as tall in pixels
 *   as the SVG says, standing on one axis in the top part of the page.
 *
 * Skipped, with the reason printed, only where no Chromium can be had (none packaged for this machine, none installed).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { GateReport } from '../../src/gate/types.js';
import { HTML_CSP, renderHtml } from '../../src/report/html.js';
import { chromium, dumpDom, screenshot } from '../helpers/chromium.js';
import { entry } from '../helpers/entries.js';
import { GiB, MiB } from '../helpers/story.js';
import { buildReportView } from '../../src/report/view.js';

// ───────────────────────────── Chromium ─────────────────────────────

if (chromium.path === null) console.warn(`html-browser.test.ts: skipping the browser tests: ${chromium.reason}`);

const work = mkdtempSync(join(tmpdir(), 'html-browser-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// ───────────────────────────── a tiny PNG decoder ─────────────────────────────

interface Image {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, row after row. */
  rgba: Uint8Array;
}

/** Decodes an 8-bit RGB or RGBA, non-interlaced PNG: what Chromium's --screenshot writes. */
function decodePng(png: Buffer): Image {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    offset += 12 + length;
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [bitDepth, colorType, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      if (bitDepth !== 8 || (colorType !== 2 && colorType !== 6) || interlace !== 0) {
        throw new Error(`unsupported PNG: bit depth ${bitDepth}, colour type ${colorType}, interlace ${interlace}`);
      }
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rgba = new Uint8Array(width * height * 4);
  let previous = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const current = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? (current[i - channels] ?? 0) : 0;
      const up = previous[i] ?? 0;
      const upLeft = i >= channels ? (previous[i - channels] ?? 0) : 0;
      const x = line[i] ?? 0;
      let value: number;
      if (filter === 0) value = x;
      else if (filter === 1) value = x + left;
      else if (filter === 2) value = x + up;
      else if (filter === 3) value = x + Math.floor((left + up) / 2);
      else if (filter === 4) value = x + paeth(left, up, upLeft);
      else throw new Error(`bad PNG filter ${filter} on row ${y}`);
      current[i] = value & 0xff;
    }
    for (let px = 0; px < width; px++) {
      const o = (y * width + px) * 4;
      rgba[o] = current[px * channels] ?? 0;
      rgba[o + 1] = current[px * channels + 1] ?? 0;
      rgba[o + 2] = current[px * channels + 2] ?? 0;
      rgba[o + 3] = channels === 4 ? (current[px * channels + 3] ?? 0) : 255;
    }
    previous = current;
  }
  return { width, height, rgba };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Is the pixel at (x, y) this #rrggbb colour, within 2 per channel? */
function isColor(image: Image, x: number, y: number, hex: string): boolean {
  const o = (y * image.width + x) * 4;
  const target = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return target.every((t, c) => Math.abs((image.rgba[o + c] ?? -99) - t) <= 2);
}

interface Block {
  left: number;
  right: number;
  top: number;
  bottom: number;
  pixels: number;
}

/** Connected areas of one colour (4-neighbours), left to right: the bars, swatches and letters drawn in it. */
function colorBlocks(image: Image, hex: string): Block[] {
  const { width, height } = image;
  const seen = new Uint8Array(width * height);
  const blocks: Block[] = [];
  for (let start = 0; start < width * height; start++) {
    if (seen[start] || !isColor(image, start % width, Math.floor(start / width), hex)) continue;
    const block: Block = { left: width, right: -1, top: height, bottom: -1, pixels: 0 };
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const at = stack.pop() ?? 0;
      const x = at % width;
      const y = Math.floor(at / width);
      block.left = Math.min(block.left, x);
      block.right = Math.max(block.right, x);
      block.top = Math.min(block.top, y);
      block.bottom = Math.max(block.bottom, y);
      block.pixels++;
      const neighbours = [
        x > 0 ? at - 1 : -1,
        x < width - 1 ? at + 1 : -1,
        y > 0 ? at - width : -1,
        y < height - 1 ? at + width : -1,
      ];
      for (const next of neighbours) {
        if (next < 0 || seen[next] || !isColor(image, next % width, Math.floor(next / width), hex)) continue;
        seen[next] = 1;
        stack.push(next);
      }
    }
    blocks.push(block);
  }
  return blocks.sort((a, b) => a.left - b.left || a.top - b.top);
}

// ───────────────────────────── the report ─────────────────────────────

const HOSTILE = `<img src=x onerror="document.title='pwned'">`;

/** APP grew 10x on dev1 (2 → 20 GiB), HCCL is 3 GiB on both, and a module named like an XSS payload is new on both. */
const report: GateReport = {
  result: 'fail',
  counts: { regressed: 1, new: 4, pass: 3 },
  entries: [
    entry({ key: 'DEV_MEM/dev0/APP', baseline: 2 * GiB, current: 2 * GiB }),
    entry({
      key: 'DEV_MEM/dev1/APP',
      baseline: 2 * GiB,
      current: 20 * GiB,
      delta: 18 * GiB,
      percent: 900,
      status: 'regressed',
      severity: 'fail',
    }),
    entry({ key: 'DEV_MEM/dev0/HCCL', baseline: 3 * GiB, current: 3 * GiB }),
    entry({ key: 'DEV_MEM/dev1/HCCL', baseline: 3 * GiB, current: 3 * GiB }),
    ...[0, 1].map((d) =>
      entry({
        key: `DEV_MEM/dev${d}/${HOSTILE}`,
        baseline: null,
        current: GiB,
        delta: null,
        percent: null,
        status: 'new',
        severity: 'warn',
      }),
    ),
    ...['"><img src=x onerror=alert(1)>', '</svg><script>document.title="pwned"</script>'].map((name) =>
      entry({
        kind: 'kernel',
        key: `dev0/${name}`,
        baseline: null,
        current: MiB,
        delta: null,
        percent: null,
        status: 'new',
        severity: 'warn',
        rule: name,
      }),
    ),
  ],
};

const html = renderHtml(buildReportView(report));
const TITLE = '✗ Memory gate failed: 1 regressed (4 warnings)';
const APP_COLOR = '#4e79a7';
const HCCL_COLOR = '#f28e2b';
const HOSTILE_COLOR = '#e15759';

/** The SVG's own numbers for a module's blocks: [x, y, width, height] per device, in CSS pixels. */
function svgBlocks(module: string): number[][] {
  const escaped = module.replace(/[*]/g, '\\*');
  const pattern = new RegExp(
    `<rect class="segment" tabindex="0" data-module="${escaped}" x="([\\d.]+)" y="([\\d.]+)" width="([\\d.]+)" height="([\\d.]+)"`,
    'g',
  );
  return [...html.matchAll(pattern)].map((m) => [1, 2, 3, 4].map((i) => Number(m[i])));
}

function titleOf(dom: string): string | undefined {
  return /<title>([^<]*)<\/title>/.exec(dom)?.[1];
}

describe('the HTML report in headless Chromium', () => {
  const page = join(work, 'report.html');
  writeFileSync(page, html);

  it.skipIf(chromium.path === null)(
    'would notice a script that ran: a control page without the CSP gets its title changed',
    async () => {
      const control = join(work, 'control.html');
      writeFileSync(control, `<!DOCTYPE html><html><head><title>original</title></head><body>${HOSTILE}</body></html>`);
      expect(titleOf(await dumpDom(control))).toBe('pwned');
      // The same page with the report's CSP: the inline handler is refused.
      const guarded = join(work, 'guarded.html');
      writeFileSync(
        guarded,
        `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="${HTML_CSP}"><title>original</title></head><body>${HOSTILE}</body></html>`,
      );
      expect(titleOf(await dumpDom(guarded))).toBe('original');
    },
  );

  it.skipIf(chromium.path === null)(
    'parses hostile names as text, with and without the CSP: no element added, title unchanged',
    async () => {
      // Without the CSP only the escaping stands between a name and a script.
      const unguarded = join(work, 'unguarded.html');
      writeFileSync(unguarded, html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\n/, ''));
      expect(readFileSync(unguarded, 'utf8')).not.toContain('Content-Security-Policy');
      for (const file of [page, unguarded]) {
        const dom = await dumpDom(file);
        expect(titleOf(dom)).toBe(TITLE);
        expect(dom).not.toMatch(/<img|<script/i);
        expect(dom.match(/<svg class="device-stacks"/g)).toHaveLength(1);
        expect(dom.match(/<rect class="segment"/g)).toHaveLength(6);
        expect(dom.match(/<line class="baseline"/g)).toHaveLength(2);
        // The names are there, as text: a key is one unbreakable span per segment.
        expect(dom).toContain('<span class="seg">&lt;img src=x onerror="document.title=\'pwned\'"&gt;</span>');
        expect(dom).toContain(
          '<span class="seg">&lt;/</span><wbr><span class="seg">svg&gt;&lt;script&gt;document.title="pwned"&lt;/</span><wbr><span class="seg">script&gt;</span>',
        );
      }
    },
  );

  it.skipIf(chromium.path === null)(
    'draws the stacked bars: module colours, heights as the SVG says, on one axis at the top of the page',
    async () => {
      const png = join(work, 'report.png');
      await screenshot(page, png, 1200, 900);
      const image = decodePng(readFileSync(png));
      expect([image.width, image.height]).toEqual([1200, 900]);

      // The bars are 43 px wide; the legend's 14 px swatches are not bars.
      const bars = (hex: string): Block[] => colorBlocks(image, hex).filter((b) => b.right - b.left + 1 >= 40);
      const app = bars(APP_COLOR);
      const hccl = bars(HCCL_COLOR);
      const hostile = bars(HOSTILE_COLOR);
      expect(app).toHaveLength(2);
      expect(hccl).toHaveLength(2);
      expect(hostile).toHaveLength(2);
      // The legend's APP swatch: one 14 × 14 square below the bars.
      const swatches = colorBlocks(image, APP_COLOR).filter(
        (b) => b.right - b.left + 1 === 14 && b.bottom - b.top + 1 === 14,
      );
      expect(swatches).toHaveLength(1);
      expect(swatches[0]?.top).toBeGreaterThan(app[0]?.bottom ?? Infinity);

      // Each block is as tall as its rect (±1.5 px of anti-aliasing) and as wide; dev1's APP is 10× dev0's.
      const expected = svgBlocks('DEV_MEM/*/APP');
      expect(expected).toHaveLength(2);
      for (const [i, block] of app.entries()) {
        const [, , width = 0, height = 0] = expected[i] ?? [];
        expect(Math.abs(block.bottom - block.top + 1 - height)).toBeLessThanOrEqual(1.5);
        expect(Math.abs(block.right - block.left + 1 - width)).toBeLessThanOrEqual(1.5);
        // Solid: every pixel of the block's box is the colour.
        expect(block.pixels).toBeGreaterThanOrEqual((block.right - block.left - 1) * (block.bottom - block.top - 1));
      }
      const [dev0, dev1] = app as [Block, Block];
      expect((dev1.bottom - dev1.top + 1) / (dev0.bottom - dev0.top + 1)).toBeCloseTo(10, 0);

      // Both APP blocks stand on the same axis, HCCL sits right on top of APP, and the hostile module on HCCL.
      expect(Math.abs(dev0.bottom - dev1.bottom)).toBeLessThanOrEqual(1);
      for (const i of [0, 1]) {
        expect(Math.abs((hccl[i]?.bottom ?? 0) + 1 - (app[i]?.top ?? 0))).toBeLessThanOrEqual(1);
        expect(Math.abs((hostile[i]?.bottom ?? 0) + 1 - (hccl[i]?.top ?? 0))).toBeLessThanOrEqual(1);
        expect(hccl[i]?.left).toBe(app[i]?.left);
      }
      // The chart comes right after the failing keys: on the first screen, on the left.
      expect(dev0.bottom).toBeGreaterThan(200);
      expect(dev0.bottom).toBeLessThan(900);
      expect(dev1.right).toBeLessThan(600);
    },
  );
});
