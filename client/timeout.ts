// A default timeout for every call, on openapi-fetch's middleware: the request's signal
// becomes "the caller's signal or the timer", so an AbortSignal passed per call still
// cancels it. The time covers the whole call, retries and their waits included, and the
// reading of the answer's body: the timer stops when the body has been read (or cannot be),
// not when the headers arrive, so a body that never ends is cut at the deadline too. The
// retry middleware reads the call's deadline, so it never starts a wait the timer would cut
// (it answers the 429 or 503 instead, Retry-After included).
import type { Middleware } from "openapi-fetch";
import { guardBody } from "./body.js";
import { anySignal } from "./signals.js";

/** Whether openapi-fetch returns without reading the body (its own test, in its order). */
function unread(request: Request, response: Response): boolean {
  const length = response.headers.get("content-length");
  return response.status === 204 || request.method === "HEAD" || (length === "0" && !response.headers.get("transfer-encoding")?.includes("chunked"));
}

/** When each running call must be done (ms since the epoch, Date.now()), by openapi-fetch's call id. */
export class CallDeadlines {
  readonly #at = new Map<string, number>();
  set(id: string, at: number): void {
    this.#at.set(id, at);
  }
  delete(id: string): void {
    this.#at.delete(id);
  }
  /** Milliseconds left to the call, or undefined when it has no deadline. */
  remainingMs(id: string, now = Date.now()): number | undefined {
    const at = this.#at.get(id);
    return at === undefined ? undefined : at - now;
  }
}

/** Aborts a call still running after `ms` with a `TimeoutError` DOMException. */
export function timeoutMiddleware(ms: number, deadlines?: CallDeadlines): Middleware {
  if (!(Number.isFinite(ms) && ms > 0)) throw new Error(`timeout: must be a positive number of ms, got ${ms}`);
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const clear = (id: string) => {
    clearTimeout(timers.get(id));
    timers.delete(id);
    deadlines?.delete(id);
  };
  return {
    onRequest({ request, id }) {
      const controller = new AbortController();
      // setTimeout rather than AbortSignal.timeout: the same clock as the retries' waits.
      timers.set(
        id,
        setTimeout(() => controller.abort(new DOMException(`The request took longer than ${ms} ms`, "TimeoutError")), ms),
      );
      deadlines?.set(id, Date.now() + ms);
      const signal = anySignal([request.signal, controller.signal]);
      // Once aborted (the caller's signal or the timer) the call is over, whichever step ends it.
      signal.addEventListener("abort", () => clear(id), { once: true });
      return new Request(request, { signal });
    },
    onResponse({ request, response, id }) {
      if (unread(request, response)) {
        clear(id);
        return undefined;
      }
      // The body is read after the middlewares: the timer runs until it is done.
      return guardBody(response, { signal: request.signal, onEnd: () => clear(id) });
    },
    onError({ id }) {
      clear(id);
      return undefined;
    },
  };
}
