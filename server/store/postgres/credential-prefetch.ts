// The pre-handler work of a request in one round trip: the per-key rate limiter's hit on
// rate_limits also reads the credential row of the key it counts (the limiter's key is the
// key's SHA-256, which is also how credentials are found), and leaves it here; the credential
// check a moment later takes it instead of querying again. Each entry serves one request and
// is kept at most `freshMs`, so a key removed from the database is refused within that time.
// Without a limiter hit (limit off, no entry) the check queries as before.

export interface CredentialRow {
  secret_digest: Buffer;
  id: string;
  organization_id: string;
}

interface Entry {
  /** The row, or undefined when no credential has this digest. */
  row: CredentialRow | undefined;
  at: number;
}

export class CredentialPrefetch {
  readonly #entries = new Map<string, Entry[]>();

  constructor(readonly freshMs = 1_000) {}

  /** Leaves what the database answered for key digest `digestHex`. */
  put(digestHex: string, row: CredentialRow | undefined): void {
    const now = Date.now();
    // Entries left by requests that stopped before their credential check (a 429, a closed
    // socket) are dropped once they are stale, so the map stays small.
    if (this.#entries.size > 1_000) {
      for (const [digest, entries] of this.#entries) {
        const fresh = entries.filter((entry) => now - entry.at < this.freshMs);
        if (fresh.length === 0) this.#entries.delete(digest);
        else this.#entries.set(digest, fresh);
      }
    }
    const entries = this.#entries.get(digestHex);
    if (entries) entries.push({ row, at: now });
    else this.#entries.set(digestHex, [{ row, at: now }]);
  }

  /** Takes the oldest fresh answer for `digestHex` (`{ row }`), or undefined when there is none. */
  take(digestHex: string): { row: CredentialRow | undefined } | undefined {
    const entries = this.#entries.get(digestHex);
    if (!entries) return undefined;
    const now = Date.now();
    let entry = entries.shift();
    while (entry && now - entry.at >= this.freshMs) entry = entries.shift();
    if (entries.length === 0) this.#entries.delete(digestHex);
    return entry && { row: entry.row };
  }
}
