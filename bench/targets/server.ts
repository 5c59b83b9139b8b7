// Target (c): the reference server in its production configuration (rate limit off, logger
// at warn so request lines stay quiet), response validation as BENCH_VALIDATE_RESPONSES says.
import { pino } from "pino";
import { startServer } from "../../server/reference-server.js";
import { serveForBench } from "../lib/child.js";

await serveForBench(() =>
  startServer({
    rateLimit: false,
    validateResponses: process.env.BENCH_VALIDATE_RESPONSES === "1",
    logger: pino({ level: "warn" }),
  }),
);
