// `npm run mock`: the mock on http://127.0.0.1:4010/v1 (PORT, HOST, MOCK_DYNAMIC override), until Ctrl-C.
import { integerEnv } from "../server/env.js";
import { runMock } from "./run.js";

let port: number;
try {
  port = integerEnv("PORT", 4010);
} catch (error) {
  console.error(`Cannot start the mock: ${(error as Error).message}`);
  process.exit(1);
}
process.exitCode = await runMock({
  port,
  host: process.env.HOST || "127.0.0.1",
  logLevel: "info",
  dynamic: process.env.MOCK_DYNAMIC === "true",
});
