// What every handler is given: the store holding the data and the clock that says "now"
// (injected so tests can fix time).
import type { Store } from "../domain/index.js";

export interface HandlerDeps {
  store: Store;
  clock: () => Date;
}
