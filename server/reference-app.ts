// The reference server's Express app: this repository's handlers over a store, served by
// the package's contract-enforcing layer (server/express/), the same code a consumer's
// service runs. It never listens (server/start-server.ts and server/reference-server.ts do).
import type express from "express";
import { createContractApp, type ContractAppOptions } from "./express/app.js";
import type { Handlers } from "./express/contract.js";
import { createHandlers } from "./handlers/index.js";
import type { Store } from "./domain/index.js";

/** The layer's options the reference server passes through, as `createContractApp` documents them. */
type LayerOptions = Pick<
  ContractAppOptions,
  "logger" | "validateResponses" | "rateLimit" | "failedAuthLimit" | "concurrencyLimit" | "addressInFlight" | "trustProxy" | "cors"
>;

export interface AppOptions extends LayerOptions {
  /** The data every handler reads and writes, and the credentials it authenticates. */
  store: Store;
  /** The current time for rules (`send_at`, timestamps); tests pin it. */
  clock?: () => Date;
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
