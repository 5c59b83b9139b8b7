// Which suites run in-process (in-memory store, servers inside the worker): the inner loop's
// directories, and the files of the whole suite whose worker may share modules between
// files. Folders group tests by concern (test/stores/ holds every store suite); how a file
// is isolated is decided here by what it needs, so a file joins the right set wherever it is,
// by what it imports, with no list of files to keep.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The directories of the inner loop (`npm run test:unit`); `npm test` runs them too. */
export const unitDirectories = ["openapi", "rules", "stores", "client", "server", "express-entry", "mock", "msw"];

const testFiles = (directory: string): string[] =>
  readdirSync(directory, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => join(directory, file).split("\\").join("/"))
    .sort();

/** What a module imports to start another process: Node's child processes, or a browser. */
const starters = /\bfrom "(node:child_process|playwright-core)"/;

/**
 * What `file` starts in another process, as the chain of imports that reaches it (`node:child_process`,
 * `node:child_process via test/support/server-process.ts`), or undefined: it imports a starter
 * itself or through the test helpers it imports (relative imports under test/, followed). Not
 * through the PostgreSQL helpers (test/postgres/): they start a cluster only with
 * TEST_POSTGRES=on, which isolates their suites (reachesPostgres, and the inner loop's own
 * switch).
 */
export function startsProcess(file: string, seen = new Set<string>()): string | undefined {
  if (seen.has(file)) return undefined;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  const own = starters.exec(text)?.[1];
  if (own) return own;
  for (const [, path] of text.matchAll(/\bfrom "(\.{1,2}\/[^"]+)\.js"/g)) {
    const helper = join(dirname(file), `${path}.ts`).split("\\").join("/");
    if (!helper.startsWith("test/") || helper.startsWith("test/postgres/") || !existsSync(helper)) continue;
    const through = startsProcess(helper, seen);
    if (through) return `${through} via ${helper}`;
  }
  return undefined;
}

/** The files of the inner loop's directories that start a child process or a browser: `npm test` only. */
export const childProcessTests = unitDirectories.flatMap((directory) => testFiles(`test/${directory}`)).filter((file) => startsProcess(file) !== undefined);

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
