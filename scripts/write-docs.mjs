#!/usr/bin/env node
// Writes the parts of the documents that other files say first: the README's inputs and outputs tables from
// action.yml (the README is the Marketplace page), docs/cli.md's help texts from the built dist/cli.js, each between
// its `<!-- … -->` markers, and the sample JUnit report of the regressed example (examples/regressed/). `npm run docs` writes (after `npm run build`); `--check` only says whether they are
// current (exit 1 if not). test/unit/repo/marketplace.test.ts and test/unit/repo/docs.test.ts fail while they differ.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');

/** A table cell: one line, with its pipes escaped. */
const cell = (text) =>
  String(text)
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replace(/\|/g, '\\|');

/** A default as the runner passes it: `''` when empty, else the literal in a code span. */
const literal = (value) => (value === undefined || value === '' ? "`''`" : `\`${String(value)}\``);

/** The two tables of action.yml's text: `| input | default | what it does |` and `| output | what it holds |`. */
export function actionTables(actionYml) {
  const action = parseYaml(actionYml);
  const inputs = Object.entries(action.inputs ?? {}).map(
    ([name, input]) => `| \`${name}\` | ${literal(input.default)} | ${cell(input.description)} |`,
  );
  const outputs = Object.entries(action.outputs ?? {}).map(
    ([name, output]) => `| \`${name}\` | ${cell(output.description)} |`,
  );
  return {
    inputs: ['| input | default | what it does |', '|---|---|---|', ...inputs].join('\n'),
    outputs: ['| output | what it holds |', '|---|---|', ...outputs].join('\n'),
  };
}

const GENERATED = '<!-- generated from action.yml by `npm run docs`: edit action.yml, not this table -->';

/** The README with each `<!-- action-NAME:start -->` … `<!-- action-NAME:end -->` span replaced by its table. */
export function withActionTables(readme, actionYml) {
  const tables = actionTables(actionYml);
  let out = readme;
  for (const [name, table] of Object.entries(tables)) {
    const span = new RegExp(`<!-- action-${name}:start -->\\n[\\s\\S]*?<!-- action-${name}:end -->`);
    if (!span.test(out))
      throw new Error(`README.md has no <!-- action-${name}:start --> … <!-- action-${name}:end --> span`);
    out = out.replace(
      span,
      () => `<!-- action-${name}:start -->\n${GENERATED}\n\n${table}\n\n<!-- action-${name}:end -->`,
    );
  }
  return out;
}

/** The commands whose `--help` docs/cli.md shows, after the program's own (''). */
export const HELP_COMMANDS = [
  '',
  'parse',
  'check',
  'baseline',
  'snapshot',
  'compare-dumps',
  'history append',
  'history show',
  'history html',
];

/** What `ascend-memory-gate [COMMAND] --help` prints at 80 columns, from the given dist/cli.js. */
export function helpText(cli, command) {
  const args = command === '' ? ['--help'] : [...command.split(' '), '--help'];
  return execFileSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', COLUMNS: '80' },
  });
}

/** docs/cli.md with each `<!-- cli-help:COMMAND:start -->` … `:end -->` span replaced by that help in a text block. */
export function withHelpTexts(page, help) {
  let out = page;
  for (const command of HELP_COMMANDS) {
    const marker = `cli-help:${command}`;
    const span = new RegExp(`<!-- ${marker}:start -->\\n[\\s\\S]*?<!-- ${marker}:end -->`);
    if (!span.test(out)) throw new Error(`docs/cli.md has no <!-- ${marker}:start --> … <!-- ${marker}:end --> span`);
    const text = help(command).replace(/\s+$/, '');
    out = out.replace(span, () => `<!-- ${marker}:start -->\n\`\`\`text\n${text}\n\`\`\`\n<!-- ${marker}:end -->`);
  }
  return out;
}

/** The regressed example as `check` gates it (the config's 16 GiB capacity too), with the sample's JUnit file. */
export const SAMPLE_JUNIT = 'examples/regressed/memory-gate.junit.xml';
export const SAMPLE_CHECK = [
  'check',
  '--baseline',
  'baselines/memory-baseline.json',
  '--config',
  'examples/memory-gate.json',
  '--plog',
  'examples/regressed/plog',
  '--compare',
  'examples/memory_compare',
];
/** The sample's time (SOURCE_DATE_EPOCH): 2026-12-02T00:00:00Z, the date of 1.0.0. */
export const SAMPLE_EPOCH = '1796169600';

/**
 * The sample JUnit file as `check --junit` writes it from the given dist/cli.js, at SAMPLE_EPOCH, with its hostname
 * written as `localhost` (the one attribute that names the machine that made it).
 */
export function sampleJunit(cli) {
  const dir = mkdtempSync(join(tmpdir(), 'amg-sample-junit-'));
  try {
    const file = join(dir, 'memory-gate.junit.xml');
    const run = spawnSync(process.execPath, [cli, ...SAMPLE_CHECK, '--junit', file], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', SOURCE_DATE_EPOCH: SAMPLE_EPOCH, ASCEND_MEMORY_GATE_THREADS: '0' },
    });
    if (run.status !== 1)
      throw new Error(`the regressed example should fail the gate (exit 1), got exit ${run.status}: ${run.stderr}`);
    return withLocalhost(readFileSync(file, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A JUnit file with every hostname attribute written as `localhost`. */
export const withLocalhost = (xml) => xml.replace(/ hostname="[^"]*"/g, ' hostname="localhost"');

/** Each document and what it should hold now. */
function expectedDocuments() {
  const action = readFileSync(join(ROOT, 'action.yml'), 'utf8');
  const cli = join(ROOT, 'dist', 'cli.js');
  return [
    ['README.md', (text) => withActionTables(text, action)],
    ['docs/cli.md', (text) => withHelpTexts(text, (command) => helpText(cli, command))],
    [SAMPLE_JUNIT, () => sampleJunit(cli)],
  ].map(([file, write]) => {
    const before = existsSync(join(ROOT, file)) ? readFileSync(join(ROOT, file), 'utf8') : '';
    return { file, before, after: write(before) };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const stale = expectedDocuments().filter((d) => d.after !== d.before);
    if (process.argv.includes('--check')) {
      if (stale.length > 0) {
        process.stderr.write(
          `docs: ${stale.map((d) => d.file).join(' and ')} differ from action.yml and dist/cli.js: run 'npm run docs'\n`,
        );
        process.exit(1);
      }
    } else {
      for (const d of stale) {
        writeFileSync(join(ROOT, d.file), d.after);
        process.stdout.write(`docs: wrote ${d.file}\n`);
      }
    }
  } catch (error) {
    process.stderr.write(`docs: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
