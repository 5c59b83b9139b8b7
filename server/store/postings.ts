// An inverted index in two flat typed arrays: for each key, the ascending positions of the
// rows that have it, stored back to back (one allocation per field, not one per key, which
// matters when a field such as an IP address has a key per row).

/** Key → sorted positions, as views into one shared array. */
export class PostingIndex {
  constructor(
    private readonly ids: Map<string, number>,
    private readonly offsets: Int32Array,
    private readonly postings: Int32Array,
  ) {}

  /** The ascending positions of the rows with `key` (empty when none). */
  get(key: string): Int32Array {
    const id = this.ids.get(key);
    if (id === undefined) return this.postings.subarray(0, 0);
    return this.postings.subarray(this.offsets[id]!, this.offsets[id + 1]!);
  }
}

/** Collects (key, position) pairs in ascending position order, then builds the index. */
export class PostingBuilder {
  readonly #ids = new Map<string, number>();
  #keys = new Int32Array(1024);
  #positions = new Int32Array(1024);
  #length = 0;

  add(key: string, position: number): void {
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.#ids.size;
      this.#ids.set(key, id);
    }
    if (this.#length === this.#keys.length) {
      const keys = new Int32Array(this.#length * 2);
      keys.set(this.#keys);
      this.#keys = keys;
      const positions = new Int32Array(this.#length * 2);
      positions.set(this.#positions);
      this.#positions = positions;
    }
    this.#keys[this.#length] = id;
    this.#positions[this.#length] = position;
    this.#length++;
  }

  /** A counting sort by key; stable, so each key's positions stay ascending. */
  build(): PostingIndex {
    const offsets = new Int32Array(this.#ids.size + 1);
    for (let i = 0; i < this.#length; i++) offsets[this.#keys[i]! + 1]!++;
    for (let id = 0; id < this.#ids.size; id++) offsets[id + 1]! += offsets[id]!;
    const next = offsets.slice(0, this.#ids.size);
    const postings = new Int32Array(this.#length);
    for (let i = 0; i < this.#length; i++) postings[next[this.#keys[i]!]!++] = this.#positions[i]!;
    return new PostingIndex(this.#ids, offsets, postings);
  }
}
