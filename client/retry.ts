// Retries on openapi-fetch's middleware, where repeating a request cannot change the outcome:
// a 429 on every method (the server refuses it before doing any work), a 503 or a network
// error only on a request that is safe to repeat: a GET, a PUT /sms/providers/{id} without
// `sort` (a relative move repeated moves twice), a POST only when the caller opts in. Waits
// follow `Retry-After`, else exponential backoff with full jitter; the wait is cut short by
// the request's AbortSignal (the caller's, or the client's timeout). A wait that would end
// after the call's deadline is not started: the answer (a 429 with its Retry-After) is
// returned instead of a TimeoutError that would hide it. Nothing here waits on what the
// request's signal does not bound: a refused answer's body is cancelled without waiting
// (under msw/node that cancel never settles), and each further attempt ends on abort.
import type { Middleware } from "openapi-fetch";
import { RedirectError } from "./errors.js";
import { untilAborted } from "./signals.js";
import type { CallDeadlines } from "./timeout.js";

export interface RetryOptions {
  /** Attempts in all, the first included (default 2: one retry). 1 never retries. */
  tries?: number;
  /** First backoff step in ms when there is no `Retry-After` (default 250); doubled per attempt, jittered. */
  baseDelayMs?: number;
  /** The longest wait in ms (default 10 000); a `Retry-After` beyond it is answered as is, without a retry. */
  maxDelayMs?: number;
  /** Also repeat POSTs after a 503 or a network error (default false: a POST may have been done). */
  retryPosts?: boolean;
  /** A random number in [0, 1), for the jitter (tests fix it). */
  random?: () => number;
}

type Outcome = { response: Response } | { error: unknown };

interface Pending {
  /** An unsent copy of the request, for each further attempt. */
  copy: Request;
  /** Whether a 503 or a network error may be answered by sending it again. */
  repeatable: boolean;
  attempts: number;
}

/** Whether repeating the request after a 503 or a network error is safe. */
async function repeatable(request: Request, schemaPath: string, retryPosts: boolean): Promise<boolean> {
  if (request.method === "GET") return true;
  if (request.method === "POST") return retryPosts;
  if (request.method === "PUT" && schemaPath === "/sms/providers/{id}") {
    try {
      const body = JSON.parse(await request.clone().text()) as Record<string, unknown>;
      return body === null || typeof body !== "object" || !("sort" in body);
    } catch {
      return true; // not JSON: refused with 400 whatever happens, and changes nothing
    }
  }
  return false;
}

/** `Retry-After` in ms (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(response: Response, now = Date.now()): number | undefined {
  const value = response.headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = httpDate(value, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const month = months.join("|");
const time = "(\\d{2}):(\\d{2}):(\\d{2})";
// RFC 9110 §5.6.7's three forms, which a recipient must accept; nothing else. Date.parse is
// not used: V8 reads `1.5` as 2001-01-05 and `-1` as 2001-01-01 (an immediate retry), and
// the asctime form, which names no zone, as local time instead of GMT.
const imfFixdate = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) (${month}) (\\d{4}) ${time} GMT$`);
const rfc850 = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-(${month})-(\\d{2}) ${time} GMT$`);
const asctime = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (${month}) ( \\d|\\d{2}) ${time} (\\d{4})$`);

/** An HTTP-date in ms since the epoch, or undefined when the value is none of the three forms or names no real instant. */
function httpDate(value: string, now: number): number | undefined {
  let parts: [day: string, month: string, year: number, h: string, m: string, s: string] | undefined;
  let match = imfFixdate.exec(value);
  if (match) parts = [match[1]!, match[2]!, Number(match[3]), match[4]!, match[5]!, match[6]!];
  else if ((match = rfc850.exec(value))) {
    // A two-digit year more than 50 years ahead is in the past century (RFC 9110 §5.6.7).
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(match[3]);
    if (year > thisYear + 50) year -= 100;
    parts = [match[1]!, match[2]!, year, match[4]!, match[5]!, match[6]!];
  } else if ((match = asctime.exec(value))) parts = [match[2]!.trim(), match[1]!, Number(match[6]), match[3]!, match[4]!, match[5]!];
  if (!parts) return undefined;
  const [day, name, year, h, m, s] = parts;
  const fields = [year, months.indexOf(name), Number(day), Number(h), Number(m), Number(s)] as const;
  const ms = Date.UTC(...fields);
  const back = new Date(ms);
  // Date.UTC rolls 31 Feb over to March and 25:00 to the next day: such a date is unreadable.
  const same = [back.getUTCFullYear(), back.getUTCMonth(), back.getUTCDate(), back.getUTCHours(), back.getUTCMinutes(), back.getUTCSeconds()];
  return same.every((v, i) => v === fields[i]) ? ms : undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
  });
}

/** The middleware; register it after the credentials (it copies the request as sent). */
export function retryMiddleware(options: RetryOptions = {}, deadlines?: CallDeadlines): Middleware {
  const tries = options.tries ?? 2;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  const random = options.random ?? Math.random;
  if (!Number.isInteger(tries) || tries < 1) throw new Error(`retry: tries must be an integer >= 1, got ${tries}`);
  const pending = new Map<string, Pending>();

  /** How long to wait before the next attempt, or undefined to answer this outcome. */
  function wait(id: string, entry: Pending, outcome: Outcome): number | undefined {
    if (entry.attempts >= tries) return undefined;
    // The client's own refusal, not a failure of the network: the same answer would come again.
    if ("error" in outcome && outcome.error instanceof RedirectError) return undefined;
    const status = "response" in outcome ? outcome.response.status : undefined;
    if (status !== 429 && !(entry.repeatable && (status === 503 || status === undefined))) return undefined;
    const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (entry.attempts - 1)) * random();
    const after = "response" in outcome ? retryAfterMs(outcome.response) : undefined;
    if (after !== undefined && after > maxDelayMs) return undefined;
    const delay = after ?? backoff;
    // The wait and at least the start of another attempt must fit in what is left of the call.
    const left = deadlines?.remainingMs(id);
    if (left !== undefined && delay >= left) return undefined;
    return delay;
  }

  async function settle(id: string, first: Outcome, fetch: (request: Request) => Promise<Response>): Promise<Response> {
    const entry = pending.get(id);
    let outcome = first;
    for (let delay = entry && wait(id, entry, outcome); entry && delay !== undefined; delay = wait(id, entry, outcome)) {
      // Not awaited: under msw/node's interceptor a body's cancel() never settles.
      if ("response" in outcome) outcome.response.body?.cancel().catch(() => {});
      await sleep(delay, entry.copy.signal);
      entry.attempts += 1;
      try {
        outcome = { response: await untilAborted(fetch(entry.copy.clone()), entry.copy.signal) };
      } catch (error) {
        outcome = { error };
      }
    }
    if ("error" in outcome) throw outcome.error;
    return outcome.response;
  }

  return {
    async onRequest({ request, schemaPath, id }) {
      if (tries > 1) pending.set(id, { copy: request.clone(), repeatable: await repeatable(request, schemaPath, options.retryPosts ?? false), attempts: 1 });
      return undefined;
    },
    async onError({ request, error, id, options: client }) {
      // A Response recovers the call; onResponse then sees it (and may go on retrying).
      try {
        return await settle(id, { error }, (request) => client.fetch(request));
      } catch (final) {
        pending.delete(id);
        if (final instanceof Error) return final;
        // The call's abort reason as it is, even one that is no Error of this realm (jsdom's
        // DOMException): wrapped, a TimeoutError would become an Error named "Error".
        if (request.signal.aborted && final === request.signal.reason) {
          if (final === error) return undefined; // openapi-fetch rethrows it, after the other middlewares
          throw final;
        }
        return new Error(String(final));
      }
    },
    async onResponse({ response, id, options: client }) {
      try {
        return await settle(id, { response }, (request) => client.fetch(request));
      } finally {
        pending.delete(id);
      }
    },
  };
}
