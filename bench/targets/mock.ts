// Target (d): the mock (Prism in-process over the bundled document), serving the examples.
import { startMock } from "../../mock/index.js";
import { serveForBench } from "../lib/child.js";

await serveForBench(() => startMock());
