// A call that would hang fails its test with an assertion naming it, instead of running into
// vitest's timeout (or past it, when the timer that would end it is the one that hangs).

/** `promise`'s outcome, or an assertion error when it has not settled within `ms` (real time). */
export function settles<T>(promise: Promise<T>, ms: number, what = "the call"): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms: it hangs`)), ms);
  });
  return Promise.race([promise, hung]).finally(() => clearTimeout(timer));
}

/** What `promise` settles to: its value, or the error it rejects with (for toMatchObject). */
export function outcome<T>(promise: Promise<T>): Promise<T | unknown> {
  return promise.then(
    (value) => value,
    (error: unknown) => error,
  );
}

/**
 * What `promise` has settled to so far ("pending" until then), read synchronously: under fake
 * timers a hanging call then fails an assertion, not vitest's timeout.
 */
export function settledState(promise: Promise<unknown>): () => unknown {
  let state: unknown = "pending";
  outcome(promise).then((settled) => {
    state = settled;
  });
  return () => state;
}
