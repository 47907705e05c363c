/**
 * The npm package works when packed: `npm pack` of this checkout, installed into an empty folder with `--offline`, an
 * empty npm cache and an unreachable registry (so nothing can come from anywhere but the tarball), runs the installed
 * `ascend-memory-gate` on the bundled examples exactly as the checkout's dist/cli.js does. This is how a team whose
 * training runs on Kubernetes, Volcano or ModelArts nodes gets the command line: from npm, not from a GitHub runner.
 *
 * Build first: `npm run build`. The packed size is a row of `npm run bench` (bench/run.mjs), with its target.
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../generators/corpus.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
};

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

let work: string;
let packed: PackResult;
let installed: string;
let bin: string;
let installOutput: string;

/** npm with no cache to fall back on and a registry that refuses connections: only the tarball can be installed. */
function npmEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_cache: join(work, 'empty-npm-cache'),
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'amg-package-'));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: ROOT,
    encoding: 'utf8',
    env: npmEnv(),
  });
  packed = (JSON.parse(out) as PackResult[])[0]!;
  const site = join(work, 'site');
  mkdirSync(site);
  for (let up = site; ; up = dirname(up)) {
    if (existsSync(join(up, 'node_modules')))
      throw new Error(`${up}/node_modules would let the installed package reach other packages`);
    if (dirname(up) === up) break;
  }
  installOutput = execFileSync(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', join(work, packed.filename)],
    { cwd: site, encoding: 'utf8', env: npmEnv() },
  );
  installed = join(site, 'node_modules', manifest.name);
  bin = join(site, 'node_modules', '.bin', 'ascend-memory-gate');
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command from the repository root (where examples/ and baselines/ are), with this test's node first on PATH. */
function run(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
  return new Promise((done) => {
    execFile(
      file,
      args,
      { cwd: ROOT, env: { PATH, ASCEND_MEMORY_GATE_THREADS: '0', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr });
      },
    );
  });
}
const checkout = (args: string[], env?: NodeJS.ProcessEnv): Promise<Run> =>
  run(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], env);
const fromPackage = (args: string[], env?: NodeJS.ProcessEnv): Promise<Run> => run(bin, args, env);

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** The files dist/cli.js and dist/parse-worker.js can load: their relative imports, import()s and new URL()s, followed. */
function reachable(root: string, entries: string[]): string[] {
  const seen = new Set<string>();
  const stack = entries.map((e) => join(root, e));
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!existsSync(file)) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(/['"](\.\.?\/[\w./-]+\.js)['"]/g))
      stack.push(resolve(dirname(file), m[1]!));
  }
  return [...seen].map((f) => relative(root, f)).sort();
}

describe('the npm package', () => {
  it('holds the command line, its schemas and documents, and nothing else', () => {
    const expected = [
      'LICENSE',
      'README.md',
      'dist/cli.js',
      'dist/parse-worker.js',
      ...readdirSync(join(ROOT, 'dist', 'chunks')).map((f) => `dist/chunks/${f}`),
      'package.json',
      ...readdirSync(join(ROOT, 'schemas')).map((f) => `schemas/${f}`),
    ].sort();
    expect(packed.files.map((f) => f.path).sort()).toEqual(expected);
    // the Action's entry and its GitHub clients stay in the repository (the Action runs from a tag, not from npm)
    expect(existsSync(join(ROOT, 'dist', 'index.js'))).toBe(true);
    expect(readdirSync(join(ROOT, 'dist', 'action')).length).toBeGreaterThan(0);
    expect(packed.unpackedSize).toBeGreaterThan(0);
  });

  it('has a README whose links resolve from the package: each is a URL, an anchor of the README, or a file the package holds', () => {
    const readme = readFileSync(join(installed, 'README.md'), 'utf8');
    const anchors = new Set(
      [...readme.matchAll(/^#+ (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    const targets = [...readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(25);
    const broken = targets.filter((t) => {
      if (/^https:\/\//.test(t)) return false;
      if (t.startsWith('#')) return !anchors.has(t.slice(1));
      return !existsSync(join(installed, t.split('#')[0]!));
    });
    // a link to a file the package does not hold: make it absolute (https://github.com/ascend-memory-gate/ascend-memory-gate/blob/main/PATH)
    expect(broken).toEqual([]);
    // the repository's own links name files that exist, on the default branch
    for (const t of targets.filter((t) => t.startsWith('https://github.com/ascend-memory-gate/ascend-memory-gate/'))) {
      const path = /\/(?:blob|raw)\/main\/([^#]+)/.exec(t)?.[1];
      expect(path, t).toBeDefined();
      expect(existsSync(join(ROOT, path!)), t).toBe(true);
    }
  });

  it('installs from the tarball alone: no registry, no cache, no dependencies', () => {
    expect(installOutput).toMatch(/added 1 package/);
    expect(readdirSync(dirname(installed)).filter((n) => n !== '.bin' && !n.startsWith('.'))).toEqual([manifest.name]);
    expect(filesUnder(installed)).toEqual(packed.files.map((f) => f.path).sort());
    expect(Object.keys(manifest.bin)).toEqual(['ascend-memory-gate']);
    expect(existsSync(bin)).toBe(true);
  });

  it('ships every file the installed command line can load', () => {
    const needed = reachable(installed, ['dist/cli.js', 'dist/parse-worker.js']);
    expect(needed.length).toBeGreaterThan(20);
    expect(needed.filter((f) => !existsSync(join(installed, f)))).toEqual([]);
    // and nothing of the Action's
    expect(needed.filter((f) => f.startsWith('dist/action/') || f === 'dist/index.js')).toEqual([]);
  });

  it('prints its version', async () => {
    expect(await fromPackage(['--version'])).toEqual({
      code: 0,
      stdout: `ascend-memory-gate ${manifest.version}\n`,
      stderr: '',
    });
  });

  it.each([
    ['parse', '--plog', 'examples/plog', '--json'],
    ['parse', '--compare', 'examples/memory_compare', '--json'],
    ['parse', '--profiler', 'test/fixtures/torch_npu', '--json'],
    ['parse', '--dump', 'test/fixtures/memscope', '--json'],
    [
      'check',
      '--baseline',
      'baselines/memory-baseline.json',
      '--plog',
      'examples/plog',
      '--compare',
      'examples/memory_compare',
    ],
  ])('%s %s %s gives what the checkout gives', async (...args) => {
    const [theirs, ours] = await Promise.all([fromPackage(args), checkout(args)]);
    expect(theirs.stderr, args.join(' ')).not.toMatch(/Cannot find (module|package)|ERR_MODULE_NOT_FOUND/);
    expect(theirs).toEqual(ours);
    expect(theirs.code).toBe(0);
    expect(theirs.stdout.length).toBeGreaterThan(100);
  });

  it('fails the regressed example (exit 1) and writes the same JSON, Markdown and HTML reports as the checkout', async () => {
    const outputs = (who: string): string[] => [
      '--report',
      join(work, `${who}.json`),
      '--markdown',
      join(work, `${who}.md`),
      '--html',
      join(work, `${who}.html`),
    ];
    const args = [
      'check',
      '--baseline',
      'baselines/memory-baseline.json',
      '--plog',
      'examples/regressed/plog',
      '--compare',
      'examples/memory_compare',
    ];
    const [theirs, ours] = await Promise.all([
      fromPackage([...args, ...outputs('package')]),
      checkout([...args, ...outputs('checkout')]),
    ]);
    expect(theirs.code).toBe(1);
    expect(theirs.stdout).toMatch(/Memory gate failed/);
    expect(theirs).toEqual(ours);
    for (const ext of ['json', 'md', 'html']) {
      expect(readFileSync(join(work, `package.${ext}`), 'utf8'), ext).toBe(
        readFileSync(join(work, `checkout.${ext}`), 'utf8'),
      );
    }
  });

  it("parses 40 MiB of plog on two threads with the package's own parse worker", async () => {
    const corpus = await generate({
      out: join(work, 'corpus'),
      plogBytes: '40MiB',
      ranks: 2,
      devices: 2,
      csvRows: 0,
      seed: 7,
    });
    const args = ['parse', '--plog', corpus.plogDir, '--json'];
    const [theirs, ours] = await Promise.all([
      fromPackage(args, { ASCEND_MEMORY_GATE_THREADS: '2' }),
      checkout(args, { ASCEND_MEMORY_GATE_THREADS: '0' }),
    ]);
    // the generated logs hold truncated records on purpose: their warnings are the same on one thread and two
    expect(theirs.stderr).toMatch(/^warning: .*truncated or malformed memory-statistics record/m);
    expect(theirs).toEqual(ours);
    expect(JSON.parse(theirs.stdout)).toMatchObject({ version: 2 });
    // a package without its worker says so: the comparison above would have seen it
    const broken = join(work, 'no-worker');
    cpSync(installed, broken, { recursive: true });
    rmSync(join(broken, 'dist', 'parse-worker.js'));
    const without = await run(process.execPath, [join(broken, 'dist', 'cli.js'), ...args], {
      ASCEND_MEMORY_GATE_THREADS: '2',
    });
    // found before any thread starts: one warning, every run, and the result of one thread
    expect(without.stderr.match(/parse worker/g)).toHaveLength(1);
    expect(without.stderr).toMatch(
      /the parse worker script .*parse-worker\.js cannot be read \(ENOENT\); parsing in this thread only \(a reinstall restores it\)/,
    );
    expect(without.stdout).toBe(ours.stdout);
  }, 120_000);
});
