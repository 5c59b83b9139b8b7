// Target (d): the mock as a test uses it (startMock's defaults: no rate limit, no
// failed-authentication limit), serving the examples. A throttled mock would answer the
// bench's one key with 429s, which bench/run.ts counts as failures.
import { startMock } from "../../mock/index.js";
import { serveForBench } from "../lib/child.js";

await serveForBench(() => startMock());
