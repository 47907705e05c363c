/**
 * The bundle stands alone: dist/ copied where no node_modules can be found runs the README's sample check and parses
 * every kind of input exactly as it does in the checkout. The Action's runner has dist/ and nothing else, while every
 * other test runs dist/ inside this repository, where a require() that reached node_modules would quietly succeed.
 *
 * Build first: `npm run build`.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const DIST = join(ROOT, 'dist');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function run(cli: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ASCEND_MEMORY_GATE_THREADS: '0' } },
      (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr });
      },
    );
  });
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

describe('dist/ on its own', () => {
  it('loads no package at run time: every require() the bundle makes names a Node built-in', () => {
    // Rollup turns CommonJS requires into imports of bundled code; what an ES module still requires at run time goes
    // through createRequire, which the bundle names __require.
    const required = new Set<string>();
    for (const file of jsFiles(DIST)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/__require(?:\.resolve)?\(\s*["']([^"']+)["']\s*\)/g))
        required.add(m[1] as string);
    }
    const builtins = new Set(builtinModules);
    expect([...required].filter((name) => !builtins.has(name.replace(/^node:/, '')))).toEqual([]);
  });

  it('gives the same results from a folder with no node_modules above it', async () => {
    const alone = mkdtempSync(join(tmpdir(), 'amg-alone-'));
    dirs.push(alone);
    for (let up = alone; ; up = dirname(up)) {
      expect(existsSync(join(up, 'node_modules')), `${up}/node_modules would let the copy reach packages`).toBe(false);
      if (dirname(up) === up) break;
    }
    cpSync(DIST, join(alone, 'dist'), { recursive: true });
    const runs = [
      // The README's first command: the sample baseline against the bundled plog and memory_compare samples.
      [
        'check',
        '--baseline',
        'baselines/memory-baseline.json',
        '--plog',
        'examples/plog',
        '--compare',
        'examples/memory_compare',
      ],
      ['parse', '--plog', 'test/fixtures/plog', '--json'],
      ['parse', '--compare', 'test/fixtures/memory-compare', '--json'],
      ['parse', '--profiler', 'test/fixtures/torch_npu', '--json'],
      ['parse', '--dump', 'test/fixtures/memscope', '--json'],
    ];
    for (const args of runs) {
      const [here, there] = await Promise.all([
        run(join(DIST, 'cli.js'), args),
        run(join(alone, 'dist', 'cli.js'), args),
      ]);
      expect(there.stderr, args.join(' ')).not.toMatch(/Cannot find (module|package)|ERR_MODULE_NOT_FOUND/);
      expect({ args, code: there.code, stdout: there.stdout }).toEqual({ args, code: here.code, stdout: here.stdout });
      expect(here.stdout.length, args.join(' ')).toBeGreaterThan(100);
    }
  });
});
