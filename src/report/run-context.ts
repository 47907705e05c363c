// What surrounds the verdicts, shown first by every renderer: a baseline that shares no key with the run, environment
// changes since the baseline, nodes that disagree, artifacts that never arrived, records not read.
import { disjointText } from '../gate/disjoint.js';
import { environmentLabel, hasEnvironmentFindings } from '../gate/environment.js';
import type { EnvironmentSplit, GateReport, NotRead } from '../gate/types.js';
import { formatCount } from '../model/units.js';
import { escapeHtml, tableCodeSpan } from './escape.js';

/** Most nodes named per value; the rest are counted. */
const NODES_SHOWN = 8;

/** One thing the run's context says, worded once; each format decorates it. */
export interface ContextBlock {
  title: string;
  severity: 'fail' | 'warn' | 'ok';
  header: string[];
  rows: string[][];
  /** What to do, one sentence after the table. */
  advice?: string;
}

const SEVERITY_ICON: Record<string, string> = { fail: '❌', warn: '⚠️', ok: 'ℹ️' };

function nodeList(nodes: string[]): string {
  const shown = nodes.slice(0, NODES_SHOWN).join(', ');
  return nodes.length > NODES_SHOWN ? `${shown} and ${nodes.length - NODES_SHOWN} more` : shown;
}

function splitRows(splits: EnvironmentSplit[]): string[][] {
  return splits.flatMap((s) =>
    s.values.map((v, i) => [
      i === 0 ? environmentLabel(s.item) : '',
      v.value ?? '(unset)',
      `${nodeList(v.nodes)} (${v.nodes.length})`,
    ]),
  );
}

/** The blocks, in order; empty when there is nothing to say. */
export function contextBlocks(report: GateReport): ContextBlock[] {
  const blocks: ContextBlock[] = [];
  const disjoint = report.disjointBaseline;
  if (disjoint !== undefined) {
    blocks.push({
      title: 'The baseline shares no key with this run: nothing was compared',
      severity: disjoint.severity,
      header: ['Side', 'Keys', 'First key'],
      rows: [
        ['baseline', formatCount(disjoint.baseline.keys), disjoint.baseline.first],
        ['this run', formatCount(disjoint.run.keys), disjoint.run.first],
      ],
      advice:
        disjoint.severity === 'fail'
          ? 'Is this the baseline of this input? Record one for it, or set "onDisjointBaseline": "warn" in the config for the first run of a new input.'
          : 'Passed under "onDisjointBaseline": "warn": record a baseline for this input.',
    });
  }
  const env = report.environment;
  if (hasEnvironmentFindings(env)) {
    if (env.changes.length > 0) {
      blocks.push({
        title: 'Environment changed since the baseline',
        severity: env.severity,
        header: ['Item', 'Baseline', 'This run'],
        rows: env.changes.map((c) => [environmentLabel(c.item), c.baseline ?? '(unset)', c.current ?? '(unset)']),
      });
    }
    if (env.splits.length > 0) {
      blocks.push({
        title: "This run's nodes disagree",
        severity: env.severity,
        header: ['Item', 'Value', 'Nodes'],
        rows: splitRows(env.splits),
      });
    }
  }
  const missing = report.missingArtifacts ?? [];
  if (missing.length > 0) {
    blocks.push({
      title: `${missing.length} artifact(s) never arrived: their keys are missing`,
      severity: 'warn',
      header: ['Artifact'],
      rows: missing.map((name) => [name]),
    });
  }
  if (report.notRead !== undefined) blocks.push(...notReadBlocks(report.notRead));
  return blocks;
}

/** Records not read: the files cut off at their end first (the job probably died there), then the count and a sample. */
function notReadBlocks(notRead: NotRead): ContextBlock[] {
  const blocks: ContextBlock[] = [];
  if (notRead.cut.length > 0) {
    blocks.push({
      title: `${notRead.cut.length === 1 ? 'A file ends' : `${formatCount(notRead.cut.length)} files end`} in a cut-off record: the job probably died there`,
      severity: 'warn',
      header: ['Not read'],
      rows: notRead.cut.map((r) => [`${r.file}:${r.line}: ${r.reason}`]),
    });
  }
  const shown = notRead.sample.filter((r) => !notRead.cut.some((c) => c.file === r.file && c.line === r.line));
  const more = notRead.count - notRead.cut.length - shown.length;
  if (shown.length > 0 || more > 0) {
    blocks.push({
      title: `${formatCount(notRead.count)} record(s) not read`,
      severity: 'warn',
      header: ['Not read'],
      rows: [
        ...shown.map((r) => [`${r.file}:${r.line}: ${r.reason}`]),
        ...(more > 0 ? [[`${formatCount(more)} more not listed`]] : []),
      ],
    });
  }
  return blocks;
}

/** Why the context alone fails the run (`environment.onChange: fail`), for the verdict line; null when it does not. */
export function contextFailure(report: GateReport): string | null {
  if (report.disjointBaseline?.severity === 'fail') return disjointText(report.disjointBaseline);
  const env = report.environment;
  if (!hasEnvironmentFindings(env) || env.severity !== 'fail') return null;
  if (env.changes.length > 0) return 'environment changed since the baseline';
  return "this run's nodes disagree on their environment";
}

/** Markdown blocks (`####` heading and a table each) to put right under the verdict line. */
export function contextMarkdown(blocks: readonly ContextBlock[]): string[] {
  return blocks.map((block) =>
    [
      `#### ${SEVERITY_ICON[block.severity]} ${block.title}`,
      '',
      `| ${block.header.join(' | ')} |`,
      `|${block.header.map(() => '---').join('|')}|`,
      ...block.rows.map((row) => `| ${row.map((cell) => (cell === '' ? '' : tableCodeSpan(cell))).join(' | ')} |`),
      ...(block.advice !== undefined ? ['', block.advice] : []),
    ].join('\n'),
  );
}

/** Terminal lines: one heading per block, one indented line per row. */
export function contextTerminal(blocks: readonly ContextBlock[], shown: (text: string) => string): string[] {
  return blocks.flatMap((block) => [
    '',
    `${block.severity.toUpperCase()}: ${block.title}`,
    ...block.rows.map((row) =>
      block.header.length === 3 && block.title.startsWith('Environment')
        ? `  ${shown(row[0]!)}: ${shown(row[1]!)} -> ${shown(row[2]!)}`
        : `  ${row
            .map((cell) => shown(cell))
            .filter((cell) => cell !== '')
            .join('  ')}`,
    ),
    ...(block.advice !== undefined ? [`  ${block.advice}`] : []),
  ]);
}

/** HTML sections, every value escaped. */
export function contextHtml(blocks: readonly ContextBlock[]): string[] {
  return blocks.map((block) =>
    [
      `<section class="context ${block.severity}">`,
      `<h2>${SEVERITY_ICON[block.severity]} ${escapeHtml(block.title)}</h2>`,
      '<table>',
      `<thead><tr>${block.header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead>`,
      `<tbody>${block.rows.map((row) => `<tr>${row.map((cell) => `<td><code>${escapeHtml(cell)}</code></td>`).join('')}</tr>`).join('')}</tbody>`,
      '</table>',
      ...(block.advice !== undefined ? [`<p>${escapeHtml(block.advice)}</p>`] : []),
      '</section>',
    ].join('\n'),
  );
}
