// What the serverless recipes of docs/backend.md import as the service's own data access
// (`./db.js`): the demo data in memory, one store shared with ./handlers/index.ts.
import type { Caller } from "../../../server/domain/index.js";
import { loadSeed } from "../../../server/seed/load.js";
import { createStore } from "../../../server/store/memory.js";

export const store = createStore(loadSeed());

export const db = {
  applicationByKey: (apiKey: string): Promise<Caller | undefined> => store.authenticateBearer(apiKey),
  applicationByPair: (apiKey: string, apiSecret: string): Promise<Caller | undefined> => store.authenticateKeyPair(apiKey, apiSecret),
};
