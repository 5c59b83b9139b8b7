// Builds the library part of the package into dist/: the client, the operations table, the
// conformance suite, the Express entry (server/express/ and the server modules it imports)
// and the `authsvc-api` command, compiled to ESM with declarations. tsc never copies a hand-written or generated .d.ts, so generated/schema.d.ts (types only) is
// copied beside them for dist/client/index.d.ts to import. Stale output is removed first so a deleted module cannot linger in the package.
import { execFileSync } from "node:child_process";
import { copyFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

for (const dir of ["dist/client", "dist/generated", "dist/conformance", "dist/cli", "dist/server"]) rmSync(dir, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", "scripts/tsconfig.build.json"], { stdio: "inherit" });
copyFileSync("generated/schema.d.ts", "dist/generated/schema.d.ts");
