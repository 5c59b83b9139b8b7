// The mock's `Prefer` switches (`code=404`, `example=Name`, `dynamic=true`, the names Prism
// uses) read from a header value, or from the `__code`, `__example`, `__dynamic` query
// parameters where a header is awkward (a link, an <img>), for the mock and the MSW handlers
// alike (no Node API here: the handlers run in browsers). Preferences are tokens split at `,` and `;` (RFC 7240), so
// a switch is read only as a whole token: `code=4040` is not code=404, `xcode=404` is another
// preference (ignored, as is any preference that is not one of the three). A switch with a
// value it cannot take is reported, never dropped: a test asking for `code=abc` must not get
// a 200 that looks like an answer.

export interface Preference {
  status?: number;
  example?: string;
  dynamic?: boolean;
  /** What was wrong with a switch (the first one), e.g. `code=abc is not a status`. */
  invalid?: string;
}

/** Longest value echoed back in a message: the header is the caller's, the message is ours. */
const echoLimit = 64;
const echo = (value: string) => JSON.stringify(value.length > echoLimit ? `${value.slice(0, echoLimit)}…` : value);

const readers: Record<string, (value: string) => Preference> = {
  code: (value) => (/^[1-5]\d\d$/.test(value) ? { status: Number(value) } : { invalid: `code=${echo(value)} is not an HTTP status` }),
  example: (value) => (/^[A-Za-z][A-Za-z0-9_]{0,127}$/.test(value) ? { example: value } : { invalid: `example=${echo(value)} is not an example name` }),
  dynamic: (value) => (value === "true" || value === "false" ? { dynamic: value === "true" } : { invalid: `dynamic=${echo(value)} is not true or false` }),
};

/** The switches of a `Prefer` header value (several headers joined with `, `). */
export function parsePrefer(value: string | null | undefined): Preference {
  const preference: Preference = {};
  for (const token of (value ?? "").split(/[,;]/)) {
    const match = /^\s*([A-Za-z0-9_-]+)\s*=\s*(?:"([^"]*)"|(\S*))\s*$/.exec(token);
    const read = match ? readers[match[1]!.toLowerCase()] : undefined;
    if (!read) continue;
    const { invalid, ...switches } = read(match![2] ?? match![3]!);
    if (invalid !== undefined) preference.invalid ??= invalid;
    Object.assign(preference, switches);
  }
  return preference;
}

const querySwitches = { __code: "code", __example: "example", __dynamic: "dynamic" } as const;

/**
 * The switches of a request, its `Prefer` header's and its query's (the query's win), and
 * its query without them (the contract layer would refuse them as unknown parameters).
 */
export function preferenceOf(header: string | null | undefined, query: URLSearchParams): { preference: Preference; query: URLSearchParams } {
  const fromQuery: string[] = [];
  let rest = query;
  for (const [name, key] of Object.entries(querySwitches)) {
    const value = query.get(name);
    if (value === null) continue;
    if (rest === query) rest = new URLSearchParams(query);
    fromQuery.push(`${key}=${value}`);
    rest.delete(name);
  }
  if (fromQuery.length === 0) return { preference: parsePrefer(header), query };
  return { preference: { ...parsePrefer(header), ...parsePrefer(fromQuery.join(", ")) }, query: rest };
}
