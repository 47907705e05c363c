/**
 * The documents hold together: every relative link in README.md, CONTRIBUTING.md, CHANGELOG.md, docs/*.md and
 * examples/README.md reaches a file of the repository, and every `#anchor` a heading of that file (slugged as GitHub
 * does); the README starts where a user starts (the two commands, then the workflow, which is the example workflow
 * file that workflows.test.ts checks) and links every docs/ page; docs/cli.md shows the `--help` of this build.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELP_COMMANDS, helpText, withHelpTexts } from '../../../scripts/write-docs.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const read = (rel: string): string => readFileSync(join(ROOT, rel), 'utf8');
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => `docs/${f}`);
const DOCUMENTS = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'examples/README.md', ...DOCS];

/** The text outside fenced code blocks (a `#` comment in a shell block is no heading, a `](x)` in code no link). */
const prose = (markdown: string): string => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');

/** GitHub's heading anchor (github-slugger): lower case, punctuation dropped, each space a hyphen; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const base = m[1]!
      .replace(/<[^>]*>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** This repository's files on its default branch, as the README links them (so they resolve from the npm package too). */
const REPOSITORY_FILE = /^https:\/\/github\.com\/ascend-memory-gate\/ascend-memory-gate\/(?:blob|raw)\/main\//;

/**
 * Relative link targets of a document: `[text](target)` and `![alt](target)`, without their optional title; a link to
 * a file of this repository on GitHub counts as one too, as `/PATH` (from the repository's root).
 */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((m) => m[1]!.replace(REPOSITORY_FILE, '/'))
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe('links between the documents', () => {
  it('finds the documents and their links', () => {
    expect(DOCS).toEqual([
      'docs/cli.md',
      'docs/configuration.md',
      'docs/evidence-formats.md',
      'docs/history.md',
      'docs/inputs-and-outputs.md',
      'docs/security-model.md',
      'docs/snapshots-and-scale.md',
    ]);
    expect(linksOf(read('README.md')).length).toBeGreaterThan(10);
  });

  it.each(DOCUMENTS)('%s: every relative link reaches a file and every anchor a heading', (doc) => {
    const broken: string[] = [];
    for (const link of linksOf(read(doc))) {
      const [path, anchor] = link.split('#', 2) as [string, string | undefined];
      const target =
        path === ''
          ? join(ROOT, doc)
          : path.startsWith('/')
            ? join(ROOT, decodeURI(path))
            : resolve(dirname(join(ROOT, doc)), decodeURI(path));
      if (!target.startsWith(ROOT) || !existsSync(target)) {
        broken.push(`${link}: no file ${relative(ROOT, target)}`);
        continue;
      }
      if (
        anchor !== undefined &&
        statSync(target).isFile() &&
        target.endsWith('.md') &&
        !anchorsOf(readFileSync(target, 'utf8')).has(anchor)
      ) {
        broken.push(`${link}: no heading #${anchor} in ${relative(ROOT, target)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the checker is live: a missing file and a missing heading are found', () => {
    expect(
      linksOf(
        'see [a](docs/nope.md), [b](#x "t"), ![c](docs/screenshots/example-comment-780.png), [d](https://example.com), `[e](f)`, [g](https://github.com/ascend-memory-gate/ascend-memory-gate/blob/main/docs/nope.md#y)',
      ),
    ).toEqual(['docs/nope.md', '#x', 'docs/screenshots/example-comment-780.png', 'f', '/docs/nope.md#y']);
    expect([
      ...anchorsOf(
        "# The profiler's memory files (torch_npu, msprof, MindSpore)\n## `check` flags\n## Inputs & outputs\n## Inputs & outputs\n```sh\n# not a heading\n```",
      ),
    ]).toEqual([
      'the-profilers-memory-files-torch_npu-msprof-mindspore',
      'check-flags',
      'inputs--outputs',
      'inputs--outputs-1',
    ]);
  });
});

describe('the README starts where users start', () => {
  const readme = read('README.md');
  const headings = [...prose(readme).matchAll(/^## (.+)$/gm)].map((m) => m[1]!);

  it('opens with the two commands a newcomer runs, then how to use it in a workflow', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)!;
    expect(
      firstBlock[1]!
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace(/\s+#.*$/, '')),
    ).toEqual(['npm ci && npm start', 'npm ci && npm test']);
    expect(readme.indexOf(firstBlock[0])).toBeLessThan(readme.indexOf('\n## '));
    expect(headings[0]).toBe('Use it in a workflow');
    expect(headings.at(-1)).toBe('Development');
  });

  it('shows examples/workflows/gate-pull-requests.yml (checked with the other workflows) as its workflow', () => {
    const file = read('examples/workflows/gate-pull-requests.yml');
    const block = /## Use it in a workflow\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBe(`${file.slice(file.indexOf('\n') + 1).trimEnd()}\n`);
    expect(block).toMatch(/uses: ascend-memory-gate\/ascend-memory-gate@v1\n/);
  });

  it('links every page of docs/', () => {
    const links = new Set(linksOf(readme).map((l) => l.split('#')[0]!.replace(/^\//, '')));
    expect(DOCS.filter((page) => !links.has(page))).toEqual([]);
  });

  it('is short: the reference lives in docs/', () => {
    expect(readme.split('\n').length).toBeLessThan(300);
  });
});

describe('docs/cli.md', () => {
  it("shows every command's --help as dist/cli.js prints it ('npm run docs' copies them)", () => {
    const page = read('docs/cli.md');
    const texts = new Map(HELP_COMMANDS.map((c) => [c, helpText(join(ROOT, 'dist', 'cli.js'), c)]));
    expect(
      withHelpTexts(page, (c) => texts.get(c)!),
      "docs/cli.md differs from dist/cli.js's help: run 'npm run docs'",
    ).toBe(page);
    expect(texts.get('check')).toMatch(/^Usage: ascend-memory-gate check --baseline FILE INPUTS \[options\]\n/);
    for (const c of HELP_COMMANDS) expect(page).toContain(texts.get(c)!.trimEnd());
  });
});
