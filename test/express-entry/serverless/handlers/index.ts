// What the serverless recipes of docs/backend.md import as the service's handler map
// (`./handlers/index.js`): the reference server's handlers over the recipes' store.
import { createHandlers } from "../../../../server/handlers/index.js";
import { store } from "../db.js";

export const handlers = createHandlers({ store, clock: () => new Date() });
