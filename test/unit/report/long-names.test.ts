// One shortening for every display: a 102,400-character kernel name is shown at most 256 characters long in the
// Markdown comment, the HTML report, JUnit, the annotations, the failure reason, the terminal and the dashboard, and
// always with the same `~hash`, that of the WHOLE key, which report.json's key ends with too.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Entry, GateReport } from '../../../src/gate/types.js';
import { emptyHistory } from '../../../src/history/format.js';
import { appendPoint } from '../../../src/history/store.js';
import { trendsOf } from '../../../src/history/trends.js';
import { annotationText, annotationTitle, failureReason } from '../../../src/report/annotation.js';
import { buildHistoryView } from '../../../src/report/history-view.js';
import { renderDashboard } from '../../../src/report/dashboard.js';
import { renderHtml } from '../../../src/report/html.js';
import { parseReportJson, renderJsonReport } from '../../../src/report/json.js';
import { renderJunit } from '../../../src/report/junit.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { renderTerminal } from '../../../src/report/terminal.js';
import { GiB } from '../../helpers/story.js';
import { buildReportView } from '../../../src/report/view.js';

/** 102,400 characters, different at each end and in the middle, so a display cannot drop one part unseen. */
const NAME = `aclnnFlashAttentionScore_${'a'.repeat(51_175)}MIDDLE${'z'.repeat(51_189)}_tail`;
const KEY = `dev0/${NAME}`;
const HASH = `~${createHash('sha256').update(KEY, 'utf8').digest('hex').slice(0, 12)}`;
/** What any display holding the long name verbatim would contain. */
const RUN = 'a'.repeat(300);

const entry: Entry = {
  kind: 'kernel',
  key: KEY,
  baseline: GiB,
  current: 3 * GiB,
  delta: 2 * GiB,
  percent: 200,
  status: 'regressed',
  severity: 'fail',
  rule: null,
};
const report: GateReport = { result: 'fail', counts: { regressed: 1 }, entries: [entry] };

/** `~` and 12 hex digits of the SHA-256 of `text`. */
const hashOf = (text: string): string => `~${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12)}`;
const PATTERN_HASH = hashOf(`*/${NAME}`);
/** A name of this file's shape as shortenName shows it at 256 (head 121, tail 121). */
const shorten = (text: string, hash: string): string => `${text.slice(0, 121)}…${text.slice(-121)}${hash}`;

/** The key as every display shows it: 256 characters, head and tail of the whole key, the whole key's hash. */
const SHOWN = `dev0/aclnnFlashAttentionScore_${'a'.repeat(91)}…${'z'.repeat(116)}_tail${HASH}`;

describe('a long name in every display', () => {
  it('is shown as 256 characters ending with the hash of the whole key', () => {
    expect(NAME).toHaveLength(102_400);
    expect(SHOWN).toHaveLength(256);
  });

  it('the HTML report shows it shortened (the page was 262 KB)', () => {
    const html = renderHtml(buildReportView(report));
    expect(html).not.toContain(RUN);
    expect(html).toContain(HASH);
    expect(html.length).toBeLessThan(40_000);
  });

  it('the JUnit testcase name, failure message and text show it shortened', () => {
    const xml = renderJunit(buildReportView(report), { timestamp: new Date(0), hostname: 'h' });
    expect(xml).not.toContain(RUN);
    expect(xml).toContain(`<testcase name="${SHOWN}"`);
    expect(xml).toContain(
      `<failure message="${SHOWN} regressed: 1.0 GiB → 3.0 GiB (+2.0 GiB, +200%)" type="regressed">${SHOWN} regressed: 1.0 GiB → 3.0 GiB (+2.0 GiB, +200%)</failure>`,
    );
    expect(xml).toContain(
      `<failure message="Memory gate failed: ${SHOWN} regressed: 1.0 GiB → 3.0 GiB (+2.0 GiB, +200%)" type="memory-gate">`,
    );
  });

  it("the Action's annotation (text and title) and the job's failure reason show it shortened", () => {
    expect(annotationText(entry)).toBe(`${SHOWN} regressed: 1.0 GiB → 3.0 GiB (+2.0 GiB, +200%)`);
    expect(annotationTitle(entry)).toBe(`Memory gate: ${SHOWN} regressed`);
    expect(failureReason(report)).toBe(`Memory gate failed: ${SHOWN} regressed: 1.0 GiB → 3.0 GiB (+2.0 GiB, +200%)`);
  });

  it('the terminal shows it shortened', () => {
    const out = renderTerminal(buildReportView(report), { width: 80, color: false });
    expect(out).not.toContain(RUN);
    // Cut to the 80-column table, the hash stays.
    expect(out).toContain(`✗ regressed  dev0/acl…zz_tail${HASH}   1.0 GiB → 3.0 GiB  +2.0 GiB (+200%)`);
  });

  it('the dashboard shows it shortened: its key group (* for the device) with the hash of the whole pattern', () => {
    const h = emptyHistory({ branch: 'main' });
    for (let n = 1; n <= 3; n++) {
      appendPoint(
        h,
        { commit: n.toString(16).padStart(40, 'c'), time: '2026-01-01T00:00:00Z', baseline: null, environment: {} },
        { keys: new Map([['kernels', new Map([[KEY, n * GiB]])]]), rollups: new Map(), devices: 1 },
      );
    }
    const page = renderDashboard(buildHistoryView(h, trendsOf(h)));
    expect(page).not.toContain(RUN);
    // The history holds the key shortened at 4,096 (the report's key): its group shows the whole key's hash, as the comment does.
    expect(page).toContain(`<figcaption><code>*/aclnnFlashAttentionScore_`);
    expect(page).toMatch(new RegExp(`<figcaption><code>\\*/aclnnFlashAttentionScore_a+…z+_tail${HASH}</code>`));
    // The HTML report's trend chart of the key (its figure caption and the chart's label).
    const html = renderHtml(buildReportView(report, { trends: trendsOf(h) }), {});
    expect(html).toContain('<figure class="trend">');
    expect(html).not.toContain(RUN);
  });
});

describe('one hash from the comment to report.json to JUnit', () => {
  it("the Markdown's ~hash is the whole key's (it hashed the segment after dev0/), as report.json's key ends", () => {
    const md = renderMarkdown(buildReportView(report));
    expect(md).not.toContain(RUN);
    expect(md).toContain(HASH);
    const json = parseReportJson(renderJsonReport(report), 'report.json');
    expect(json.entries[0]?.key).toHaveLength(4096);
    expect(json.entries[0]?.key.endsWith(HASH)).toBe(true);
  });

  it("comment mode's Markdown, made from report.json's 4,096-character key, shows the same name and hash as the gate's", () => {
    const json = parseReportJson(renderJsonReport(report), 'report.json');
    const fromJson = renderMarkdown(
      buildReportView({ result: json.result, counts: json.counts, entries: json.entries }),
    );
    expect(fromJson).toContain(HASH);
    expect(fromJson).toBe(renderMarkdown(buildReportView(report)));
    expect(
      renderJunit(buildReportView({ result: json.result, counts: json.counts, entries: json.entries }), {
        timestamp: new Date(0),
        hostname: 'h',
      }),
    ).toBe(renderJunit(buildReportView(report), { timestamp: new Date(0), hostname: 'h' }));
  });
});

describe('one hash for a key group (the same long kernel on two devices)', () => {
  const twice: GateReport = {
    result: 'fail',
    counts: { regressed: 2 },
    entries: [entry, { ...entry, key: `dev1/${NAME}` }],
  };
  const SHOWN_PATTERN = shorten(`*/${NAME}`, PATTERN_HASH);

  it('report.json is read back: no group for keys it shortens (each has its own hash; the whole pattern made its own reader refuse it)', () => {
    const json = parseReportJson(renderJsonReport(twice), 'report.json');
    expect(json.groups).toBeUndefined();
    expect(json.entries.map((e) => [e.key.length, e.key.slice(-13)])).toEqual([
      [4096, HASH],
      [4096, hashOf(`dev1/${NAME}`)],
    ]);
  });

  it('the Markdown, HTML and JUnit show the pattern as the dashboard does', () => {
    expect(SHOWN_PATTERN).toHaveLength(256);
    const md = renderMarkdown(buildReportView(twice));
    expect(md).not.toContain(RUN);
    expect(md).toContain(PATTERN_HASH);
    const html = renderHtml(buildReportView(twice));
    expect(html).not.toContain(RUN);
    expect(html).toContain(PATTERN_HASH);
    expect(renderJunit(buildReportView(twice), { timestamp: new Date(0), hostname: 'h' })).toContain(
      `<testcase name="${SHOWN_PATTERN}"`,
    );
  });
});
