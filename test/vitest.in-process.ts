// Which suites run in-process (in-memory store, servers inside the worker): the inner loop's
// directories, and the files of the whole suite whose worker may share modules between
// files. Chosen by directory, so a test file added to one of these directories joins them.
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The directories of the inner loop (`npm run test:unit`); `npm test` runs them too. */
export const unitDirectories = ["openapi", "rules", "stores", "client", "server", "express", "mock", "msw"];

/** Files of those directories that start `npm start`, `npm run mock`, a probe or a browser in a child process: `npm test` only. */
export const childProcessTests = [
  "test/client/browser.test.ts",
  "test/server/http/entry-point.test.ts",
  "test/server/store/credentials.test.ts",
  "test/mock/main.test.ts",
  "test/express/handler-map.test.ts",
];

/** Store suites run against PostgreSQL too in `npm test`, one cluster per file: a fresh process each there. */
const clusterDirectories = ["stores"];

const testFiles = (directory: string): string[] =>
  readdirSync(directory, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => join(directory, file).split("\\").join("/"));

/** The files of `npm test` whose worker shares modules between files (vitest `isolate: false`). */
export const sharedModuleFiles = unitDirectories
  .filter((directory) => !clusterDirectories.includes(directory))
  .flatMap((directory) => testFiles(`test/${directory}`))
  .filter((file) => !childProcessTests.includes(file))
  .sort();
