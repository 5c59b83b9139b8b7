// `npm run lint` (Biome: the formatting and lint rules of biome.json, no writes) passes on the
// whole tree, and it can fail: in a scratch project with the same biome.json and scripts, a
// file written as this project writes passes, and an unformatted file and a lint defect each
// make it exit non-zero, named in Biome's own message.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, run, type Ran } from "./run.js";

const scratch = mkdtempSync(join(tmpdir(), "biome-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const written = {
  "clean.ts": 'export const greet = (name: string): string => ["Hello", name].join(", ");\n\nexport const config = { retries: 2, methods: ["get", "put"] };\n',
  "clean.json": '{\n  "name": "clean",\n  "tags": [\n    "a",\n    "b"\n  ]\n}\n',
  "unformatted.ts": "export const greet = (name: string): string => 'Hello, ' + name\n",
  "unformatted.json": '{ "name": "unformatted", "tags": ["a", "b"] }\n',
  "defect.ts": "export function same(a: unknown, b: unknown): boolean {\n  return a == b;\n}\n",
};

/** `npm run lint` in `cwd`, over the given files (default: all), its messages without colour codes. */
const lint = (cwd: string, ...files: string[]): Promise<Ran> => run("npm", ["run", "-s", "lint", "--", "--colors=off", ...files], cwd);

let tree: Ran;

beforeAll(async () => {
  // biome.json reads .gitignore (vcs.useIgnoreFile); the scripts come from package.json.
  for (const file of ["biome.json", ".gitignore", "package.json"]) copyFileSync(join(root, file), join(scratch, file));
  symlinkSync(join(root, "node_modules"), join(scratch, "node_modules"));
  for (const [name, text] of Object.entries(written)) writeFileSync(join(scratch, name), text);
  tree = await lint(root);
}, 60_000);

/** The paths of biome.json's overrides that turn off both its formatter and its linter. */
function switchedOff(): string[] {
  const config = JSON.parse(readFileSync(join(root, "biome.json"), "utf8")) as {
    overrides?: { includes?: string[]; formatter?: { enabled?: boolean }; linter?: { enabled?: boolean } }[];
  };
  return (config.overrides ?? []).filter((o) => o.formatter?.enabled === false && o.linter?.enabled === false).flatMap((o) => o.includes ?? []);
}

describe("npm run lint (Biome)", () => {
  it("passes on the whole tree", () => {
    // On failure: `npm run format`, then fix what Biome still names (docs/testing.md).
    expect(tree.code, tree.output).toBe(0);
  });

  it("checks every tracked TypeScript, JavaScript and JSON file", async () => {
    const tracked = (await run("git", ["ls-files", "*.ts", "*.mts", "*.cts", "*.js", "*.mjs", "*.cjs", "*.json", "*.jsonc"])).output
      .split("\n")
      // Biome leaves lock files alone, and the files biome.json turns both tools off for
      // (generated/validators.cjs: Ajv's standalone code, written by `npm run generate`).
      .filter((file) => file !== "" && !file.endsWith("package-lock.json") && !switchedOff().includes(file));
    const checked = Number(/Checked (\d+) files?/.exec(tree.output)?.[1]);
    expect(tracked.length).toBeGreaterThan(300);
    expect(checked, tree.output).toBeGreaterThanOrEqual(tracked.length);
  });

  it("passes files written in the project's style", async () => {
    const { code, output } = await lint(scratch, "clean.ts", "clean.json");
    expect(code, output).toBe(0);
  }, 30_000);

  it.each([
    ["an unformatted TypeScript file", "unformatted.ts", /unformatted\.ts format/],
    ["an unformatted JSON file", "unformatted.json", /unformatted\.json format/],
    ["a broken lint rule", "defect.ts", /defect\.ts:2:\d+ lint\/suspicious\/noDoubleEquals/],
  ])(
    "fails on %s, with Biome's message",
    async (_what, file, message) => {
      const { code, output } = await lint(scratch, "clean.ts", file);
      expect(code).not.toBe(0);
      expect(output).toMatch(message);
      expect(output).not.toMatch(/clean\.ts/);
    },
    30_000,
  );
});
