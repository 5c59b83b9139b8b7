// Builds the published packages (packages/<name>/dist/), each from the top-level sources:
// `tsx scripts/build.ts [contract|mock|server|conformance …]` (all when none is named; each
// package's `prepack` names itself). tsc compiles each package's entries (its
// tsconfig.build.json) with everything they import, so a package carries exactly the
// modules it runs, laid out as in the repository (dist/client/, dist/generated/, …) so
// relative paths keep working. tsc never copies a hand-written or generated .d.ts or a JSON
// file, so those are copied beside the modules that read them. Stale output is removed
// first so a deleted module cannot linger in a package.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** Files copied into a package's dist/ (repository path → path under dist/), when they exist. */
export const copies: Record<string, Record<string, string>> = {
  contract: {
    "generated/schema.d.ts": "generated/schema.d.ts",
    "generated/openapi.json": "generated/openapi.json",
    // The Arazzo workflows, beside the document they name (`redocly respect` runs them as shipped).
    "generated/integration.arazzo.json": "generated/integration.arazzo.json",
    // The Postman collection. (The rendered reference left the package: docs/publishing.md.)
    "generated/postman": "postman",
    // The configurations of peer test tools (Portman, Schemathesis): docs/document.md#peers.
    "generated/peers": "peers",
  },
  mock: {
    "generated/schema.d.ts": "generated/schema.d.ts",
    "generated/openapi.json": "generated/openapi.json",
    // The demo credentials the mock accepts, as the reference server does.
    "server/seed/demo.json": "server/seed/demo.json",
    // The precompiled validators of the document (server/contract-layer/precompiled.ts): the mock validates as the server does.
    "generated/validators.cjs": "generated/validators.cjs",
  },
  server: {
    "generated/schema.d.ts": "generated/schema.d.ts",
    "generated/openapi.json": "generated/openapi.json",
    // The precompiled validators of the document (server/contract-layer/precompiled.ts).
    "generated/validators.cjs": "generated/validators.cjs",
    "server/seed/demo.json": "server/seed/demo.json",
  },
  conformance: {
    "generated/schema.d.ts": "generated/schema.d.ts",
    "generated/openapi.json": "generated/openapi.json",
    // The first part of the run (conformance/workflows.ts), beside the document it names.
    "generated/integration.arazzo.json": "generated/integration.arazzo.json",
  },
};

export const packageNames = Object.keys(copies);

export function buildPackage(name: string): void {
  const pkg = join(root, "packages", name);
  const dist = join(pkg, "dist");
  rmSync(dist, { recursive: true, force: true });
  // Emit only: `npm test` type-checks the whole tree (test/types/tsc.test.ts) and the output is
  // the same byte for byte; checking again cost each pack 6 of its 15 s.
  execFileSync(process.execPath, [tsc, "-p", join(pkg, "tsconfig.build.json"), "--noCheck"], { stdio: "inherit" });
  for (const [from, to] of Object.entries(copies[name]!)) {
    if (!existsSync(join(root, from))) continue;
    mkdirSync(dirname(join(dist, to)), { recursive: true });
    cpSync(join(root, from), join(dist, to), { recursive: true });
  }
  copyFileSync(join(root, "CHANGELOG.md"), join(dist, "CHANGELOG.md"));
  // The `bin` of package.json: npm links it executable, a direct run needs the mode too.
  for (const bin of ["cli/authsvc-api.js", "cli/authsvc-api-conformance.js"]) if (existsSync(join(dist, bin))) chmodSync(join(dist, bin), 0o755);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  const unknown = names.filter((name) => !packageNames.includes(name));
  if (unknown.length > 0) {
    console.error(`build: unknown package ${unknown.join(", ")} (one of ${packageNames.join(", ")})`);
    process.exitCode = 2;
  } else for (const name of names.length > 0 ? names : packageNames) buildPackage(name);
}
