// Which suites run in-process (in-memory store, servers inside the worker): the inner loop's
// directories, and the files of the whole suite whose worker may share modules between
// files. Folders group tests by concern (test/stores/ holds every store suite); how a file
// is isolated is decided here by what it needs, so a file joins the right set wherever it is.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The directories of the inner loop (`npm run test:unit`); `npm test` runs them too. */
export const unitDirectories = ["openapi", "rules", "stores", "client", "server", "express-entry", "mock", "msw"];

/** Files of those directories that start `npm start`, `npm run mock`, a probe or a browser in a child process: `npm test` only. */
export const childProcessTests = [
  "test/client/browser.test.ts",
  "test/server/middleware/entry-point.test.ts",
  "test/stores/memory/credentials.test.ts",
  "test/mock/main.test.ts",
  "test/express-entry/handler-map.test.ts",
];

const testFiles = (directory: string): string[] =>
  readdirSync(directory, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => join(directory, file).split("\\").join("/"))
    .sort();

/** The PostgreSQL store's own suites, with no in-memory half: `npm test` only (they skip without PostgreSQL). */
export const postgresOnlyTests = testFiles("test/stores/postgres");

/**
 * Files that reach PostgreSQL: they import the cluster helper (test/postgres/database.ts),
 * `forEachStore` (test/support/stores.ts, which runs a describe on both stores) or the
 * PostgreSQL store's code (server/store/postgres/). In `npm test` each gets a fresh process:
 * the helper holds one cluster per file.
 */
const reachesPostgres = (file: string): boolean =>
  /from "(\.\.\/)+(postgres\/database|support\/stores|server\/store\/postgres\/[^"]+)\.js"/.test(readFileSync(file, "utf8"));

/** The files of `npm test` whose worker shares modules between files (vitest `isolate: false`). */
export const sharedModuleFiles = unitDirectories
  .flatMap((directory) => testFiles(`test/${directory}`))
  .filter((file) => !childProcessTests.includes(file) && !reachesPostgres(file))
  .sort();
