// Which host and change request a command-line run is about, from flags or the CI's own environment, and the
// one-line refusals of what cannot be told.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectReview } from '../../../src/hosts/detect.js';

const BASE = 'a'.repeat(40);
const dir = mkdtempSync(join(tmpdir(), 'amg-detect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('detectReview', () => {
  it('is null on a laptop: no flags, no CI', () => {
    expect(detectReview({}, { PATH: '/bin' })).toBeNull();
  });

  it("reads a GitLab merge request pipeline's own variables", () => {
    const env = {
      GITLAB_CI: 'true',
      CI_API_V4_URL: 'https://gitlab.example.com/api/v4',
      CI_PROJECT_ID: '42',
      CI_MERGE_REQUEST_IID: '7',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: BASE,
      GITLAB_TOKEN: 't',
    };
    expect(detectReview({}, env)).toEqual({
      host: 'gitlab',
      repo: '42',
      number: 7,
      baseSha: BASE,
      api: 'https://gitlab.example.com/api/v4',
      tokenVariable: 'GITLAB_TOKEN',
      token: 't',
      from: 'GitLab CI (CI_MERGE_REQUEST_IID)',
    });
  });

  it('says a GitLab branch pipeline is about no merge request, and never takes CI_JOB_TOKEN for a token', () => {
    const target = detectReview({}, { GITLAB_CI: 'true', CI_PROJECT_ID: '42', CI_JOB_TOKEN: 'job' });
    expect(target).toMatchObject({
      host: 'gitlab',
      number: undefined,
      token: undefined,
      tokenVariable: 'GITLAB_TOKEN',
      api: 'https://gitlab.com/api/v4',
    });
  });

  it('reads the pull request of a GitHub Actions or AtomGit event file; ATOMGIT_TOKEN stands in for GITCODE_TOKEN', () => {
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 3, base: { sha: BASE } } }));
    expect(
      detectReview(
        {},
        {
          GITHUB_ACTIONS: 'true',
          GITHUB_REPOSITORY: 'o/r',
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: event,
        },
      ),
    ).toMatchObject({ host: 'github', repo: 'o/r', number: 3, baseSha: BASE, api: 'https://api.github.com' });
    expect(
      detectReview(
        {},
        {
          ATOMGIT_REPOSITORY: 'ascend/demo',
          ATOMGIT_EVENT_NAME: 'pull_request',
          ATOMGIT_EVENT_PATH: event,
          ATOMGIT_TOKEN: 'x',
        },
      ),
    ).toMatchObject({
      host: 'gitcode',
      repo: 'ascend/demo',
      number: 3,
      api: 'https://api.gitcode.com/api/v5',
      tokenVariable: 'ATOMGIT_TOKEN',
      token: 'x',
    });
    expect(
      detectReview({}, { GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: 'o/r', GITHUB_EVENT_NAME: 'push' }),
    ).toMatchObject({ number: undefined, from: 'GitHub Actions (push event: not a pull request)' });
  });

  it("follows AtomGit's documented variables: a merge_request event, ATOMGIT_API_URL, the number from ATOMGIT_REF", () => {
    const event = join(dir, 'event-mr.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 8, base: { sha: BASE } } }));
    expect(
      detectReview(
        {},
        {
          ATOMGIT_REPOSITORY: 'ascend/demo',
          ATOMGIT_EVENT_NAME: 'merge_request',
          ATOMGIT_EVENT_PATH: event,
          ATOMGIT_API_URL: 'https://api.atomgit.example/api/v5',
          ATOMGIT_TOKEN: 'x',
        },
      ),
    ).toMatchObject({ host: 'gitcode', number: 8, baseSha: BASE, api: 'https://api.atomgit.example/api/v5' });
    // No event file: ATOMGIT_REF is refs/pull/<number>/merge on an unmerged pull request.
    expect(
      detectReview(
        {},
        {
          ATOMGIT_REPOSITORY: 'ascend/demo',
          ATOMGIT_EVENT_NAME: 'pull_request',
          ATOMGIT_REF: 'refs/pull/12/merge',
          GITCODE_API_URL: 'http://127.0.0.1:9/api/v5',
          ATOMGIT_API_URL: 'https://api.atomgit.example/api/v5',
        },
      ),
    ).toMatchObject({ number: 12, baseSha: undefined, api: 'http://127.0.0.1:9/api/v5' });
  });

  it('takes --host --repo --pr --base-sha over the environment; an empty --pr is a branch build', () => {
    expect(
      detectReview(
        { host: 'gitcode', repo: 'o/r', pr: '12', baseSha: BASE },
        { GITLAB_CI: 'true', GITCODE_TOKEN: 'g', GITCODE_API_URL: 'http://127.0.0.1:9/api/v5' },
      ),
    ).toMatchObject({
      host: 'gitcode',
      number: 12,
      baseSha: BASE,
      api: 'http://127.0.0.1:9/api/v5',
      token: 'g',
    });
    expect(detectReview({ host: 'gitlab', repo: 'g/sub/p', pr: '' }, {})).toMatchObject({
      number: undefined,
      repo: 'g/sub/p',
    });
  });

  it.each([
    [{ host: 'bitbucket', repo: 'o/r' }, "--host must be github, gitlab or gitcode, not 'bitbucket'"],
    [{ host: 'gitlab' }, '--host gitlab needs --repo GROUP/PROJECT (or the project id)'],
    [{ host: 'gitcode', repo: 'o' }, "--repo must be OWNER/NAME, not 'o'"],
    [{ host: 'github', repo: 'o/r', pr: '0' }, "--pr must be a change request number (1 or more), not '0'"],
    [
      { host: 'github', repo: 'o/r', pr: '1', baseSha: 'abc' },
      "--base-sha must be a full 40-character commit sha, not 'abc'",
    ],
    [{ pr: '3' }, '--repo and --pr go with --host github|gitlab|gitcode'],
  ])('refuses %j in one line', (flags, message) => {
    expect(() => detectReview(flags, {})).toThrow(message);
  });
});
