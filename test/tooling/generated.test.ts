// The committed `generated/` files are what `npm run generate` makes from `openapi/` today:
// a hand edit or a stale bundle fails here (and so in CI). The generation runs in a scratch
// directory through the same npm scripts, so the flags cannot drift from package.json.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, run, type Ran } from "./run.js";

const files = [
  "openapi.json",
  "integration.arazzo.json",
  "schema.d.ts",
  "operations.ts",
  "examples.ts",
  "validators.cjs",
  "postman/collection.json",
  "postman/local-mock.postman_environment.json",
  "postman/local-server.postman_environment.json",
  "postman/production.postman_environment.json",
];
const scratch = mkdtempSync(join(tmpdir(), "generate-"));
let generation: Ran;

beforeAll(async () => {
  // The scripts read openapi/ and scripts/ and write generated/, all relative to the cwd;
  // Biome formats generated/ last, with the project's biome.json (which reads .gitignore).
  for (const shared of ["openapi", "scripts", "server", "node_modules", "tsconfig.json", "biome.json", ".gitignore"])
    symlinkSync(join(root, shared), join(scratch, shared));
  copyFileSync(join(root, "package.json"), join(scratch, "package.json"));
  mkdirSync(join(scratch, "generated"));
  generation = await run("npm", ["run", "-s", "generate"], scratch);
  // `npm run generate` took 34 s and 62 s alone at load 16-18 on two cores, past 120 s beside
  // another file's child processes at load 20.
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("generated/ is fresh", () => {
  it("npm run generate succeeds", () => {
    expect(generation.code, generation.output).toBe(0);
  });

  it.each(files)("generated/%s equals a fresh generation byte for byte", (file) => {
    const fresh = readFileSync(join(scratch, "generated", file));
    const committed = readFileSync(join(root, "generated", file));
    // On failure: run `npm run lint:api && npm run generate` and commit generated/ too.
    expect(committed.equals(fresh), `generated/${file} is stale or was edited by hand`).toBe(true);
  });

  it.each(files.filter((f) => f.endsWith(".ts")))("generated/%s says it is generated and not to be edited", (file) => {
    const head = readFileSync(join(root, "generated", file), "utf8").slice(0, 300);
    expect(head).toMatch(/generated/i);
    expect(head).toMatch(/do not (make direct changes|edit)/i);
  });
});
