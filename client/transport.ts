// The fetch every attempt of a call goes through (the first and each retry). It sends with
// `redirect: "manual"` and follows no redirect: a 3xx (or a browser's opaqueredirect) ends
// the call with a RedirectError, so the credentials on the request never reach another
// origin and another origin's body never becomes `data`. Node's fetch would strip only
// `Authorization` across origins and keep `X-Api-Key`/`X-Api-Secret` (turning a 302 POST
// into a GET that still carries them); a browser would send them to an origin that allows
// them by CORS. The fetch itself and every read of the body end when the call's signal
// aborts, and the body is capped at `maxBytes`. An answer the client lets go of before its end
// (a refused redirect, a retried 503, a body over the limit) is let go of by aborting that
// attempt's fetch, then reading what it still hands over (client/body.ts), not by cancelling
// its body: happy-dom's fetch keeps feeding a cancelled body and throws an uncaught
// `Controller is already closed` (its FetchBodyUtility.nodeToWebStream has no cancel), while
// its abort stops the source.
import { guardBody } from "./body.js";
import { RedirectError } from "./errors.js";
import { anySignal, untilAborted } from "./signals.js";

export type Fetch = (request: Request) => Promise<Response>;

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** Whether `response` is a redirect the fetch did not follow, or one it followed anyway to another origin. */
function redirectOf(request: Request, response: Response): RedirectError | undefined {
  if (response.type === "opaqueredirect") return new RedirectError(response.status, undefined, undefined);
  const origin = new URL(request.url).origin;
  if (redirectStatuses.has(response.status)) {
    const location = response.headers.get("location") ?? undefined;
    let target: string | undefined;
    try {
      target = location === undefined ? undefined : new URL(location, request.url).origin;
    } catch {
      target = undefined; // not a URL: still a redirect, still refused
    }
    return new RedirectError(response.status, location, target === undefined ? undefined : target !== origin);
  }
  // A fetch passed in that follows redirects whatever `request.redirect` says.
  if (response.redirected && response.url && new URL(response.url).origin !== origin) {
    return new RedirectError(0, response.url, true);
  }
  return undefined;
}

/** Wraps `fetch`: no redirect followed, bounded by the request's signal, the body capped at `maxBytes` (undefined: none). */
export function safeFetch(fetch: Fetch, maxBytes: number | undefined): Fetch {
  return async (request) => {
    const attempt = new AbortController();
    const letGo = (reason: unknown) => attempt.abort(reason);
    const sent = new Request(request, { redirect: "manual", signal: anySignal([request.signal, attempt.signal]) });
    const answered = fetch(sent);
    // A fetch that ignores the signal may answer after the call has ended: let go of that body.
    answered.then(
      (late) => void (sent.signal.aborted && late.body?.cancel().catch(() => {})),
      () => {},
    );
    const response = await untilAborted(answered, sent.signal);
    const redirect = redirectOf(sent, response);
    if (redirect) {
      // Through the guard, which lets go of the body as of any other answer.
      guardBody(response, { signal: sent.signal, letGo })
        .body?.cancel(redirect)
        .catch(() => {});
      throw redirect;
    }
    return guardBody(response, { signal: sent.signal, letGo, ...(maxBytes === undefined ? {} : { maxBytes }) });
  };
}
