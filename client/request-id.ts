// X-Request-Id on every call: the caller's when it gives one (per call or in the client's
// headers), else a fresh UUID, the same for the retries of that call. The server and the
// mock echo it and log it, so the id a result carries is the one to quote in a bug report.

export const requestIdHeader = "X-Request-Id";

/** A random (version 4) UUID; `crypto.randomUUID` only exists in secure contexts (https, localhost). */
export function newRequestId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

type HeadersOption = Headers | [string, string][] | Record<string, string | number | boolean | (string | number | boolean)[] | null | undefined> | undefined;

/** The X-Request-Id of a headers option, in any of its forms, or undefined. */
export function requestIdOf(headers: HeadersOption): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(requestIdHeader) ?? undefined;
  const entries = Array.isArray(headers) ? headers : Object.entries(headers);
  const found = entries.find(([name]) => String(name).toLowerCase() === "x-request-id")?.[1];
  return found === undefined || found === null ? undefined : String(found);
}

/**
 * `headers` with X-Request-Id set to `id`: a record stays a record, pairs become a Headers
 * object like a Headers object does. openapi-fetch merges headers by `Object.entries`, which
 * turns pairs into headers named `0`, `1`, ..., so pairs handed on as pairs would not arrive.
 */
export function withRequestId(headers: HeadersOption, id: string): HeadersOption {
  if (headers instanceof Headers || Array.isArray(headers)) {
    const copy = new Headers(headers);
    copy.set(requestIdHeader, id);
    return copy;
  }
  return { ...headers, [requestIdHeader]: id };
}
