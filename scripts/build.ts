// Builds the package into dist/: the client, the operations table and typed examples, the
// MSW handlers, the conformance suite, the mock, the reference server and the `authsvc-api`
// command, compiled to ESM with declarations. tsc never copies a hand-written or generated
// .d.ts or a JSON file, so generated/schema.d.ts (types only) and the server's demo seed are
// copied beside the modules that read them. Stale output is removed first so a deleted
// module cannot linger in the package.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

for (const dir of ["client", "generated", "conformance", "cli", "mock", "msw", "server"]) rmSync(`dist/${dir}`, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", "scripts/tsconfig.build.json"], { stdio: "inherit" });
copyFileSync("generated/schema.d.ts", "dist/generated/schema.d.ts");
copyFileSync("server/seed/demo.json", "dist/server/seed/demo.json");
// The `bin` of package.json: npm links it executable, a direct run needs the mode too.
chmodSync("dist/cli/authsvc-api.js", 0o755);
