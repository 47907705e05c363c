import { describe, expect, it } from 'vitest';
import {
  backendIdsFromToken,
  backoffDelay,
  HttpStatusError,
  isTransient,
  latestOfEachName,
  RequestFailed,
  withRetries,
} from '../../../src/sources/artifact-service.js';
import { thrown, thrownAsync } from '../../helpers/thrown.js';

const policy = { attempts: 4, baseDelayMs: 100, maxDelayMs: 300, timeoutMs: 50 };

describe('which failures are retried', () => {
  it('5xx, 408 and 429 are; 404, 410 and 403 are not', () => {
    expect([500, 502, 503, 504, 408, 429, 404, 410, 403].map((s) => isTransient(new HttpStatusError(s, 'x')))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('resets and dropped bodies are (undici hides the code under `cause`); a bad zip and an exhausted request are not', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(isTransient(new TypeError('fetch failed', { cause: reset }))).toBe(true);
    expect(isTransient(new TypeError('terminated', { cause: new Error('other side closed') }))).toBe(true);
    expect(isTransient(new DOMException('x', 'TimeoutError'))).toBe(true);
    expect(isTransient(new Error('invalid central directory'))).toBe(false);
    expect(isTransient(new RequestFailed('HTTP 503 (after 5 attempts)', new HttpStatusError(503, 'x')))).toBe(false);
  });
});

describe('backoff', () => {
  it('doubles from the base, capped, with jitter between half and all of it', () => {
    expect([1, 2, 3, 4].map((a) => backoffDelay(policy, a, () => 1))).toEqual([100, 200, 300, 300]);
    expect([1, 2, 3, 4].map((a) => backoffDelay(policy, a, () => 0))).toEqual([50, 100, 150, 150]);
  });

  it('retries a transient failure until it succeeds, reporting each retry', async () => {
    const seen: string[] = [];
    let calls = 0;
    const value = await withRetries(
      'listing',
      { ...policy, baseDelayMs: 1, maxDelayMs: 1 },
      (what, attempt, reason) => seen.push(`${what} ${attempt} ${reason}`),
      async () => {
        if (++calls < 3) throw new HttpStatusError(503, 'listing');
        return 'ok';
      },
    );
    expect(value).toBe('ok');
    expect(seen).toEqual(['listing 1 listing: HTTP 503', 'listing 2 listing: HTTP 503']);
  });

  it('gives up after the last attempt, and at once on a 4xx; a request that never answers times out', async () => {
    const fast = { ...policy, baseDelayMs: 1, maxDelayMs: 1 };
    expect(
      (
        await thrownAsync(
          withRetries(
            'a',
            fast,
            () => {},
            async () => {
              throw new HttpStatusError(502, 'a');
            },
          ),
        )
      ).message,
    ).toBe('a: HTTP 502 (after 4 attempts)');
    let calls = 0;
    expect(
      (
        await thrownAsync(
          withRetries(
            'b',
            fast,
            () => {},
            async () => {
              calls++;
              throw new HttpStatusError(404, 'b');
            },
          ),
        )
      ).message,
    ).toBe('b: HTTP 404');
    expect(calls).toBe(1);
    const hang = (signal: AbortSignal) =>
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    expect((await thrownAsync(withRetries('c', { ...fast, attempts: 2 }, () => {}, hang))).message).toBe(
      'timed out after 50 ms (after 2 attempts)',
    );
  });
});

describe('the runtime token and the listing', () => {
  const jwt = (payload: unknown) => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`;

  it('reads the run and job backend ids from the Actions.Results scope', () => {
    expect(backendIdsFromToken(jwt({ scp: 'Actions.ExampleScope Actions.Results:run-1:job-2' }))).toEqual({
      run: 'run-1',
      job: 'job-2',
    });
    expect(thrown(() => backendIdsFromToken(jwt({ scp: 'Actions.ExampleScope' }))).message).toBe(
      'ACTIONS_RUNTIME_TOKEN grants no workflow run (no Actions.Results scope)',
    );
    expect(thrown(() => backendIdsFromToken('not-a-jwt')).message).toBe(
      'ACTIONS_RUNTIME_TOKEN is not a JWT: run the Action inside a workflow job',
    );
  });

  it('keeps the newest artifact of each name (a re-run uploads again), whatever the order', () => {
    const a = [
      { name: 'plog-rank-0', id: 1, size: 1, createdAt: 10 },
      { name: 'plog-rank-0', id: 5, size: 2, createdAt: 20 },
      { name: 'plog-rank-1', id: 3, size: 3, createdAt: 15 },
      { name: 'plog-rank-1', id: 4, size: 4, createdAt: 15 },
    ];
    const ids = (list: typeof a) =>
      latestOfEachName(list)
        .map((x) => x.id)
        .sort();
    expect(ids(a)).toEqual([4, 5]);
    expect(ids([...a].reverse())).toEqual([4, 5]);
  });
});
