// The reference server's Express app: this repository's handlers over a store, served by
// the package's contract-enforcing layer (server/express/), the same code a consumer's
// service runs. It never listens (server/listen.ts and server/reference-server.ts do).
import type express from "express";
import type { Logger } from "pino";
import { createContractApp, type TrustProxy } from "./express/app.js";
import type { Handlers } from "./express/contract.js";
import { createHandlers } from "./handlers/index.js";
import type { CorsOptions } from "./http/cors.js";
import type { RateLimitOptions } from "./http/rate-limit.js";
import type { Store } from "./domain/index.js";

export interface AppOptions {
  /** The data every handler reads and writes, and the credentials it authenticates. */
  store: Store;
  /** The current time for rules (`send_at`, timestamps); tests pin it. */
  clock?: () => Date;
  /** Where request logs go; default a silent logger (server/reference-server.ts passes one at LOG_LEVEL). */
  logger?: Logger;
  /** Validate every response body against the document (default true; a failure is a 500). */
  validateResponses?: boolean;
  /** Requests per window per API key, or false for none (benchmarks). */
  rateLimit?: RateLimitOptions | false;
  /** Failed authentications (401) per window per client address, or false for none (suites that send many bad credentials). */
  failedAuthLimit?: RateLimitOptions | false;
  /** Requests one API key may have in flight at once (default 16; none when rateLimit is false), or false for no cap. */
  concurrencyLimit?: number | false;
  /** Requests one client address may have in flight before others from it wait (default 64), or false. */
  addressInFlight?: number | false;
  /** Which proxies to believe about the client address: hops or addresses/CIDRs (default false); `npm start` reads TRUST_PROXY. */
  trustProxy?: TrustProxy;
  /** Which browser origins may call (CORS), or false/absent for none; `npm start` reads CORS_ORIGINS. */
  cors?: CorsOptions | false;
  /** Unknown paths: the 404 problem (`"problem"`, default: the reference server is only the API) or `next()`. */
  unmatched?: "next" | "problem";
  /** Replace some handlers (tests plug in a deliberately wrong or throwing one). */
  handlers?: Partial<Handlers>;
}

/** Builds the app over the store's data and credentials. */
export function createApp(options: AppOptions): express.Express {
  const { store, clock = () => new Date(), handlers, unmatched = "problem", ...layer } = options;
  return createContractApp({ ...layer, unmatched, handlers: { ...createHandlers({ store, clock }), ...handlers }, authenticate: store });
}
