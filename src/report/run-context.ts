// What surrounds the verdicts, shown first by every renderer: environment changes since the baseline, nodes that disagree, artifacts that never arrived.
import { environmentLabel, hasEnvironmentFindings } from '../gate/environment.js';
import type { EnvironmentSplit, GateReport } from '../gate/types.js';
import { escapeHtml, tableCodeSpan } from './escape.js';

/** Most nodes named per value; the rest are counted. */
const NODES_SHOWN = 8;

interface ContextBlock {
  title: string;
  severity: 'fail' | 'warn' | 'ok';
  header: string[];
  rows: string[][];
}

const SEVERITY_ICON: Record<string, string> = { fail: '❌', warn: '⚠️', ok: 'ℹ️' };

function nodeList(nodes: string[]): string {
  const shown = nodes.slice(0, NODES_SHOWN).join(', ');
  return nodes.length > NODES_SHOWN ? `${shown} and ${nodes.length - NODES_SHOWN} more` : shown;
}

function splitRows(splits: EnvironmentSplit[]): string[][] {
  return splits.flatMap((s) => s.values.map((v, i) => [i === 0 ? environmentLabel(s.item) : '', v.value ?? '(unset)', `${nodeList(v.nodes)} (${v.nodes.length})`]));
}

/** The blocks, in order; empty when there is nothing to say. */
function contextBlocks(report: GateReport): ContextBlock[] {
  const blocks: ContextBlock[] = [];
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
      blocks.push({ title: "This run's nodes disagree", severity: env.severity, header: ['Item', 'Value', 'Nodes'], rows: splitRows(env.splits) });
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
  return blocks;
}

/** Why the context alone fails the run (`environment.onChange: fail`), for the verdict line; null when it does not. */
export function contextFailure(report: GateReport): string | null {
  const env = report.environment;
  if (!hasEnvironmentFindings(env) || env.severity !== 'fail') return null;
  if (env.changes.length > 0) return 'environment changed since the baseline';
  return "this run's nodes disagree on their environment";
}

/** Markdown blocks (`####` heading and a table each) to put right under the verdict line. */
export function contextMarkdown(report: GateReport): string[] {
  return contextBlocks(report).map((block) =>
    [
      `#### ${SEVERITY_ICON[block.severity]} ${block.title}`,
      '',
      `| ${block.header.join(' | ')} |`,
      `|${block.header.map(() => '---').join('|')}|`,
      ...block.rows.map((row) => `| ${row.map((cell) => (cell === '' ? '' : tableCodeSpan(cell))).join(' | ')} |`),
    ].join('\n'),
  );
}

/** Terminal lines: one heading per block, one indented line per row. */
export function contextTerminal(report: GateReport, shown: (text: string) => string): string[] {
  return contextBlocks(report).flatMap((block) => [
    '',
    `${block.severity.toUpperCase()}: ${block.title}`,
    ...block.rows.map((row) =>
      block.header.length === 3 && block.title.startsWith('Environment')
        ? `  ${shown(row[0]!)}: ${shown(row[1]!)} -> ${shown(row[2]!)}`
        : `  ${row.map((cell) => shown(cell)).filter((cell) => cell !== '').join('  ')}`,
    ),
  ]);
}

/** HTML sections, every value escaped. */
export function contextHtml(report: GateReport): string[] {
  return contextBlocks(report).map((block) =>
    [
      `<section class="context ${block.severity}">`,
      `<h2>${SEVERITY_ICON[block.severity]} ${escapeHtml(block.title)}</h2>`,
      '<table>',
      `<thead><tr>${block.header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead>`,
      `<tbody>${block.rows.map((row) => `<tr>${row.map((cell) => `<td><code>${escapeHtml(cell)}</code></td>`).join('')}</tr>`).join('')}</tbody>`,
      '</table>',
      '</section>',
    ].join('\n'),
  );
}
