// The fast inner loop (`npm run test:unit`): the suites that run in this process's workers
// with in-process servers and the in-memory store. Chosen by directory, so a test file added
// to one of these directories joins the loop, and one anywhere else (package, PostgreSQL,
// child processes, browsers, throwaway git repositories) stays in `npm test` only.
// PostgreSQL is off unless TEST_POSTGRES=on: the store suites then report its half as
// skipped, with the reason (test/postgres/cluster.ts).
import { defineConfig } from "vitest/config";
import full from "./vitest.config.js";

/** The directories of the inner loop; `npm test` runs them too. */
export const unitDirectories = ["openapi", "rules", "stores", "client", "server", "express", "mock", "msw"];

/** Files of those directories that start `npm start`, `npm run mock` or a probe in a child process: `npm test` only. */
export const childProcessTests = [
  "test/server/http/entry-point.test.ts",
  "test/server/store/credentials.test.ts",
  "test/mock/main.test.ts",
  "test/express/handler-map.test.ts",
];

const postgres = process.env.TEST_POSTGRES ?? "off";

export default defineConfig({
  ...full,
  test: {
    ...full.test,
    include: unitDirectories.map((directory) => `test/${directory}/**/*.test.ts`),
    exclude: [...(full.test?.exclude ?? []), ...childProcessTests],
    env: { TEST_POSTGRES: postgres },
    // Files of a worker share their modules (express, the validator, the document) instead of
    // importing them afresh, about a second each. Not with PostgreSQL on: its test module
    // holds one cluster per file (test/postgres/database.ts).
    isolate: postgres === "on",
    typecheck: { ...full.test?.typecheck, enabled: false },
  },
});
