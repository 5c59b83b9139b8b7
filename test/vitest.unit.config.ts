// The fast inner loop (`npm run test:unit`): the suites that run in this process's workers
// with in-process servers and the in-memory store (test/vitest.in-process.ts). A test file
// added to one of its directories joins the loop unless it starts a child process or is a
// PostgreSQL-only store suite (test/stores/postgres/); one anywhere else (package,
// PostgreSQL, child processes, browsers, throwaway git repositories) stays in `npm test` only.
// PostgreSQL is off unless TEST_POSTGRES=on: the store suites then report its half as
// skipped, with the reason (test/postgres/cluster.ts).
import { defineConfig } from "vitest/config";
import full from "./vitest.config.js";
import { childProcessTests, postgresOnlyTests, unitDirectories } from "./vitest.in-process.js";

const postgres = process.env.TEST_POSTGRES ?? "off";

export default defineConfig({
  ...full,
  test: {
    ...full.test,
    // One project: the whole suite's split by isolation is not needed here.
    projects: undefined,
    include: unitDirectories.map((directory) => `test/${directory}/**/*.test.ts`),
    exclude: [...(full.test?.exclude ?? []), ...childProcessTests, ...postgresOnlyTests],
    env: { TEST_POSTGRES: postgres },
    // Files of a worker share their modules (express, the validator, the document) instead of
    // importing them afresh, about a second each. Not with PostgreSQL on: its test module
    // holds one cluster per file (test/postgres/database.ts).
    isolate: postgres === "on",
  },
});
