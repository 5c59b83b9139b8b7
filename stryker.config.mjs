// Mutation testing of the domain rules, the client and the HTTP layer (`npm run mutation`, not in CI: it
// takes minutes of CPU). Scores and the surviving mutants explained: records/test-measurements.md.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "test/vitest.mutation.config.ts" },
  mutate: ["server/rules/**/*.ts", "client/**/*.ts", "server/middleware/**/*.ts"],
  coverageAnalysis: "perTest",
  // One test process: the machine is shared, and the suites start servers on free ports.
  concurrency: 1,
  timeoutMS: 30_000,
  // The first run, with coverage per test, takes minutes on a loaded machine.
  dryRunTimeoutMinutes: 30,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
