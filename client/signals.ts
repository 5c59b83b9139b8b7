// AbortSignal helpers with fallbacks for the browsers of the baseline (docs/client.md):
// `AbortSignal.any` arrived in Chrome 116, Firefox 124 and Safari 17.4, `AbortSignal.timeout`
// in Chrome 103, Firefox 100 and Safari 16. Where a browser has them they are used as is.

/** A signal that aborts when any of `signals` does, with that signal's reason. */
export function anySignal(signals: readonly AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === "function") return AbortSignal.any([...signals]);
  const controller = new AbortController();
  const aborted = signals.find((signal) => signal.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return controller.signal;
  }
  const onAbort = (event: Event) => {
    for (const signal of signals) signal.removeEventListener("abort", onAbort);
    controller.abort((event.target as AbortSignal).reason);
  };
  for (const signal of signals) signal.addEventListener("abort", onAbort, { once: true });
  return controller.signal;
}

/** A signal that aborts after `ms` with a `TimeoutError` DOMException, as `AbortSignal.timeout` does. */
export function timeoutSignal(ms: number): AbortSignal {
  if (typeof AbortSignal.timeout === "function") return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException("The operation timed out.", "TimeoutError")), ms);
  return controller.signal;
}

/**
 * `promise`, or a rejection with the signal's reason as soon as it aborts, whichever comes
 * first. For steps that must not outlive the call's budget even when what they wait on
 * ignores the signal (a fetch a test passes in, an interceptor's stream).
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {}); // settled later, observed by no one
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}
