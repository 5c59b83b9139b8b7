// The errors the client itself ends a call with when the other side misbehaves, besides the
// `TimeoutError`/`AbortError` DOMExceptions of the time budget and the caller's signal. Like
// those (and network errors) they reject the call's promise and carry its `requestId`.

/**
 * The answer was a redirect (3xx). The client follows none: the API's document declares no
 * redirect, and following one could carry the credentials to another origin. `location` is
 * the target when the runtime shows it (Node, Deno, MSW); a browser hides it (an
 * `opaqueredirect` response, `status` 0).
 */
export class RedirectError extends Error {
  constructor(
    readonly status: number,
    readonly location: string | undefined,
    /** Whether the target is on another origin than the request's (undefined when hidden). */
    readonly crossOrigin: boolean | undefined,
  ) {
    super(
      `The answer was a redirect (${status || "opaque"}${location ? ` to ${location}` : ""}), which the client does not follow: ` +
        "the API answers without redirects, so the base URL is wrong or something between rewrites it",
    );
    this.name = "RedirectError";
  }
}

/** The answer's body was larger than the client's `maxResponseBytes`; it was not read further. */
export class ResponseTooLargeError extends Error {
  constructor(
    readonly limit: number,
    readonly status: number,
  ) {
    super(`The answer (status ${status}) is larger than the client's limit of ${limit} bytes (maxResponseBytes)`);
    this.name = "ResponseTooLargeError";
  }
}
