// What a call threw, for tests that assert on an error's message, pointer or class; fails the test when nothing is thrown.

export function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    if (err instanceof Error) return err;
    throw new Error(`threw a non-Error: ${String(err)}`);
  }
  throw new Error('expected an error, nothing was thrown');
}

export async function thrownAsync(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof Error) return err;
    throw new Error(`threw a non-Error: ${String(err)}`);
  }
  throw new Error('expected an error, nothing was thrown');
}
