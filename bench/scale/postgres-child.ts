// The PostgreSQL scale target: a server process on DATABASE_URL (opened as server/main.ts
// opens it) with the same settings as the in-memory scale target, so the two differ only
// in their store.
import { pino } from "pino";
import { startServer } from "../../server/reference-server.js";
import { openDatabase } from "../../server/store/postgres/open.js";
import { serveForBench } from "../lib/child.js";

await serveForBench(async () => {
  const { store } = await openDatabase(process.env.DATABASE_URL!);
  const server = await startServer({ store, rateLimit: false, validateResponses: false, logger: pino({ level: "warn" }) });
  return { url: server.url };
});
