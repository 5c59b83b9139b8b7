// `npm run mock`: the mock on http://127.0.0.1:4010/v1 (PORT, HOST, MOCK_DYNAMIC override: server/config.ts), until Ctrl-C.
import { mockConfigFromEnv, type MockConfig } from "../server/config.js";
import { runMock } from "./run.js";

let config: MockConfig;
try {
  config = mockConfigFromEnv();
} catch (error) {
  console.error(`Cannot start the mock: ${(error as Error).message}`);
  process.exit(1);
}
process.exitCode = await runMock({ ...config, logLevel: "info" });
