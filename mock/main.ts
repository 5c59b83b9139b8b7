// `npm run mock`: the mock on http://127.0.0.1:4010/v1 (PORT, HOST override), until Ctrl-C.
import { startMock } from "./index.js";

const port = Number(process.env.PORT ?? 4010);
const host = process.env.HOST ?? "127.0.0.1";
const mock = await startMock({ port, host, logLevel: "error", dynamic: process.env.MOCK_DYNAMIC === "true" });
console.log(`Mock of the application API on ${mock.url} (static examples; Prefer: dynamic=true for generated data)`);

let closing = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    mock.close().then(() => process.exit(0), () => process.exit(1));
  });
}
