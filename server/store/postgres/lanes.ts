// One lane per key: work given the same key runs one at a time, in arrival order; other keys
// run beside it. The store runs an application's report statements in its lane, so one
// tenant's expensive report queries (a broad filter's per-day counts, a deep page) hold at
// most one database backend of this process at a time, however many of its requests are in
// flight, and the others' statements find a CPU (docs/postgres.md, Fair sharing).
export function lanes(): <T>(key: string, work: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (key, work) => {
    const mine = (tails.get(key) ?? Promise.resolve()).then(work);
    const tail = mine.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    // The last in line clears the key: the map holds only keys with work queued.
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return mine;
  };
}
