// The suites `npm run mutation` (stryker.config.mjs) runs against each mutant of server/rules/
// and client/: the rules through the store and handler suites, the client through its own.
// In-memory store only, and no child processes, so a mutant's run takes seconds.
import { defineConfig } from "vitest/config";
import unit from "./vitest.unit.config.js";

export default defineConfig({
  ...unit,
  test: {
    ...unit.test,
    include: ["test/stores/**/*.test.ts", "test/server/operations/**/*.test.ts", "test/server/store/**/*.test.ts", "test/client/**/*.test.ts"],
    env: { TEST_POSTGRES: "off" },
    isolate: true,
  },
});
