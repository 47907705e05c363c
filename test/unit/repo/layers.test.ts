// The layers of src/ hold (.dependency-cruiser.cjs): no cycles, no stage importing a later one, @actions/* only at the edges.
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

/** dependency-cruiser's JSON verdict on `src/` of `cwd`, with the repository's rules. */
function cruise(cwd: string): Promise<{ violations: Violation[]; modules: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'json'],
      { cwd, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // Exit code = number of errors: a non-zero exit with JSON on stdout is a verdict, not a failure to run.
        if (stdout.trim() === '')
          return reject(new Error(`depcruise wrote nothing (${error?.message ?? 'no error'}): ${stderr}`));
        const result = JSON.parse(stdout) as { summary: { violations: Violation[]; totalCruised: number } };
        resolve({ violations: result.summary.violations, modules: result.summary.totalCruised });
      },
    );
  });
}

describe('the layers of src/', () => {
  it('hold on the tree as it is: no cycle, no layer reaching a later one', async () => {
    const { violations, modules } = await cruise(ROOT);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
    expect(modules).toBeGreaterThan(100);
  });

  const scratch = mkdtempSync(path.join(os.tmpdir(), 'layers-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('catch each kind of violation in a tree made to break them', async () => {
    const files: Record<string, string> = {
      'src/common/errors.ts': "import { formatBytes } from '../model/units.js';\nexport const e = formatBytes;\n",
      'src/model/units.ts':
        "import { renderTerminal } from '../report/terminal.js';\nexport const formatBytes = (n: number): string => `${n}`;\nexport const t = renderTerminal;\n",
      'src/json/reader.ts': "import { judge } from '../gate/compare.js';\nexport const parseJson = judge;\n",
      'src/sources/local.ts': "import { judge } from '../gate/compare.js';\nexport const find = judge;\n",
      'src/parsers/plog.ts':
        "import { renderTerminal } from '../report/terminal.js';\nexport const parse = renderTerminal;\n",
      'src/gate/compare.ts':
        "import { renderTerminal } from '../report/terminal.js';\nimport { schemas } from '../json/schemas.js';\nexport const judge = (): string => renderTerminal() + String(schemas);\n",
      'src/json/schemas.ts': 'export const schemas = 1;\n',
      'src/history/store.ts':
        "import { renderTerminal } from '../report/terminal.js';\nimport { check } from '../run/check.js';\nexport const points = (): unknown => [renderTerminal, check];\n",
      'src/run/check.ts': "import { run } from '../action/main.js';\nexport const check = run;\n",
      'src/report/terminal.ts':
        "import { comment } from '../github/comment.js';\nexport const renderTerminal = (): string => comment;\n",
      'src/github/comment.ts': "import { run } from '../action/main.js';\nexport const comment = String(run);\n",
      'src/action/main.ts': "import { runCli } from '../cli/commands.js';\nexport const run = runCli;\n",
      'src/cli/commands.ts':
        "import * as core from '@actions/core';\nimport { a } from './cycle-a.js';\nexport const runCli = (): unknown => [core, a];\n",
      'src/cli/cycle-a.ts': "import { b } from './cycle-b.js';\nexport const a = (): unknown => b;\n",
      'src/cli/cycle-b.ts': "import { a } from './cycle-a.js';\nexport const b = (): unknown => a;\n",
      'src/report/unused.ts': 'export const nobodyImportsMe = 1;\n',
      // A stand-in for the toolkit package, so that the scratch tree resolves `@actions/core` on its own.
      'node_modules/@actions/core/package.json': JSON.stringify({
        name: '@actions/core',
        type: 'module',
        exports: './index.js',
      }),
      'node_modules/@actions/core/index.js': 'export const info = () => {};\n',
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
      }),
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
      writeFileSync(path.join(scratch, file), text);
    }

    const { violations } = await cruise(scratch);
    const found = violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual(
      [
        'actions-toolkit-only-at-the-edges: src/cli/commands.ts → node_modules/@actions/core/index.js',
        'common-is-the-bottom: src/common/errors.ts → src/model/units.ts',
        'entries-apart: src/action/main.ts → src/cli/commands.ts',
        'gate-does-not-render: src/gate/compare.ts → src/report/terminal.ts',
        'github-is-not-an-entry: src/github/comment.ts → src/action/main.ts',
        'history-does-not-render: src/history/store.ts → src/report/terminal.ts',
        'history-does-not-render: src/history/store.ts → src/run/check.ts',
        'run-is-the-pipeline-not-an-entry: src/run/check.ts → src/action/main.ts',
        'json-reader-imports-only-common: src/json/reader.ts → src/gate/compare.ts',
        'model-imports-nothing-above-it: src/model/units.ts → src/report/terminal.ts',
        'no-circular: src/cli/cycle-a.ts → src/cli/cycle-b.ts',
        'no-orphans: src/report/unused.ts → src/report/unused.ts',
        'parsers-do-not-judge-or-render: src/parsers/plog.ts → src/report/terminal.ts',
        'report-does-not-publish: src/report/terminal.ts → src/github/comment.ts',
        'schema-catalogues-are-for-scripts: src/gate/compare.ts → src/json/schemas.ts',
        'sources-only-fetch: src/sources/local.ts → src/gate/compare.ts',
      ].sort(),
    );
  });
});
