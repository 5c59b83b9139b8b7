// A default timeout for every call, on openapi-fetch's middleware: the request's signal
// becomes "the caller's signal or the timer", so an AbortSignal passed per call still
// cancels it. The time covers the whole call, retries and their waits included.
import type { Middleware } from "openapi-fetch";

/** Aborts a call still running after `ms` with a `TimeoutError` DOMException. */
export function timeoutMiddleware(ms: number): Middleware {
  if (!(Number.isFinite(ms) && ms > 0)) throw new Error(`timeout: must be a positive number of ms, got ${ms}`);
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const clear = (id: string) => {
    clearTimeout(timers.get(id));
    timers.delete(id);
  };
  return {
    onRequest({ request, id }) {
      const controller = new AbortController();
      // setTimeout rather than AbortSignal.timeout: the same clock as the retries' waits.
      timers.set(
        id,
        setTimeout(() => controller.abort(new DOMException(`The request took longer than ${ms} ms`, "TimeoutError")), ms),
      );
      return new Request(request, { signal: AbortSignal.any([request.signal, controller.signal]) });
    },
    onResponse({ id }) {
      clear(id);
      return undefined;
    },
    onError({ id }) {
      clear(id);
      return undefined;
    },
  };
}
