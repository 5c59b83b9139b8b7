// `npm run mock`: the mock on http://127.0.0.1:4010/v1 (PORT, HOST override), until Ctrl-C.
import { integerEnv } from "../server/env.js";
import { startMock, type RunningMock } from "./index.js";

let mock: RunningMock;
try {
  mock = await startMock({
    port: integerEnv("PORT", 4010),
    host: process.env.HOST || "127.0.0.1",
    logLevel: "error",
    dynamic: process.env.MOCK_DYNAMIC === "true",
  });
} catch (error) {
  // A bad PORT, or a port in use.
  console.error(`Cannot start the mock: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
console.log(`Mock of the application API on ${mock.url} (static examples; Prefer: dynamic=true for generated data)`);

let closing = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    mock.close().then(() => process.exit(0), () => process.exit(1));
  });
}
