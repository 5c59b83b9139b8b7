// The mock: the reference server's own contract layer (server/contract-layer/: credentials,
// request validation, limits when asked for, CORS, request ids, the log line, the one error mapper) in
// front of handlers that answer from the document instead of a store (mock/answers.ts). So
// every refusal a request can earn from the document alone is the server's own answer, and
// what only state can decide (unknown ids, conflicts) is documented in docs/mock.md.
// In-process: close() is all the cleanup there is.
import type { LevelWithSilent } from "pino";
import { createContractApp } from "../server/contract-layer/app.js";
import { listen } from "../server/contract-layer/listen.js";
import { ready } from "../server/contract-layer/readiness.js";
import type { CorsOptions } from "../server/middleware/cors.js";
import { basePathOf, loadDocument } from "../server/document/load.js";
import { createLogger } from "../server/middleware/logging.js";
import type { RateLimitOptions } from "../server/middleware/rate-limit.js";
import { mockHandlers } from "./answers.js";
import { readSeed, seedAuthenticator } from "./credentials.js";
import { current, takePreference } from "./prefer.js";

export interface MockOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Answer with generated data instead of the documented examples (per request: `Prefer: dynamic=true`). */
  dynamic?: boolean;
  /**
   * Pages every list spans at the `limit` asked, the last one holding one record (default 1:
   * the documented records; 3 with generated data), so infinite scrolling has pages to load.
   */
  pages?: number;
  /** The request log's level (one JSON line per request on stdout); default `silent`. */
  logLevel?: LevelWithSilent;
  /** Which browser origins may call; default any origin (`*`, never with credentials). `false` for no CORS headers. */
  cors?: CorsOptions | false;
  /**
   * Requests per window per API key, as the server counts them; default false (none): the mock
   * is a test double, and a parallel suite on one demo key must not see 429s it did not ask
   * for. `{ limit: 600, windowMs: 60_000 }` is the server's.
   */
  rateLimit?: RateLimitOptions | false;
  /** Failed authentications per window per address, as on the server; default false (none). The server's is 60 per 60 s. */
  failedAuthLimit?: RateLimitOptions | false;
  /** The seed whose credentials are accepted and whose records writes start from; default the demo seed (the examples' applications). */
  seedFile?: string;
}

export interface RunningMock {
  /** Base URL of the API, ending in the document's base path, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** Stops listening; resolves once in-flight requests are answered. */
  close(): Promise<void>;
}

/** Starts the mock on a free port (or the one given) and resolves once it listens. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  if (options.pages !== undefined && !(Number.isInteger(options.pages) && options.pages >= 1))
    throw new Error(`startMock: pages must be an integer >= 1, got ${options.pages}`);
  const document = loadDocument();
  const seed = readSeed(options.seedFile);
  const app = createContractApp({
    // The mock is only the API: an unknown path is the server's 404 problem, not a pass to nothing.
    unmatched: "problem",
    document,
    handlers: mockHandlers(document, { dynamic: options.dynamic ?? false, ...(options.pages === undefined ? {} : { pages: options.pages }), seed }) as never,
    authenticate: seedAuthenticator(seed),
    logger: createLogger(options.logLevel ?? "silent"),
    // The examples are checked against the schemas in CI; generated data is random within them.
    validateResponses: false,
    cors: options.cors ?? { origins: "*" },
    rateLimit: options.rateLimit ?? false,
    failedAuthLimit: options.failedAuthLimit ?? false,
  });
  // Every operation's validators compiled before the port opens, as listen() does for an app
  // it is given: here it is given the Prefer step in front of the app, which has no warm-up
  // of its own, so a client's (or a Playwright probe's) first request would pay for them.
  await ready(app);
  // Served as the server serves a contract app (server/contract-layer/listen.ts): its request
  // timeout, `100 Continue` after the credentials, problem bodies for Node's own 400/408/431,
  // the drain; each request first gives up its `Prefer` header to the answers.
  const listening = await listen(
    (req, res) => {
      const { preference, url } = takePreference(req);
      req.url = url;
      current.run({ preference, res }, () => app(req, res));
    },
    { port: options.port ?? 0, host: options.host ?? "127.0.0.1", closeTimeoutMs: 2000 },
  );
  return { url: `${listening.origin}${basePathOf(document)}`, close: listening.close };
}
