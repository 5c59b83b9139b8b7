// One way down: dependency-cruiser over the repository's code with the rules of
// .dependency-cruiser.mjs (the layer order, no circle), as `npm run lint:layers` runs it, reports nothing; every folder with code
// is in a layer, so a new one cannot slip past the rules; and the same rules over a small
// tree of known-bad imports (one back up a layer, one between two units of a layer, a
// circle) report each of them, and nothing for the good import beside them.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type ICruiseOptions, type ICruiseResult, type IForbiddenRuleType, cruise } from "dependency-cruiser";
import { afterAll, describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;
const configFile = new URL("../../.dependency-cruiser.mjs", import.meta.url).href;
const {
  default: config,
  layers,
  foldersOf,
} = (await import(configFile)) as {
  default: { forbidden: IForbiddenRuleType[]; options: ICruiseOptions };
  layers: (string | string[])[][];
  foldersOf: (unit: string | string[]) => string[];
};
/** The folders `npm run lint:layers` cruises. */
const script = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts["lint:layers"]!;
const cruised = script.replace(/^depcruise /, "").split(" ");

async function cruiseIn(baseDir: string, folders: string[]): Promise<ICruiseResult> {
  const previous = process.cwd();
  process.chdir(baseDir);
  try {
    const { output } = await cruise(folders, { ...config.options, baseDir, ruleSet: { forbidden: config.forbidden }, validate: true });
    return output as ICruiseResult;
  } finally {
    process.chdir(previous);
  }
}

const violations = (result: ICruiseResult) => result.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`).sort();

describe("the layer order (.dependency-cruiser.mjs)", () => {
  let result: ICruiseResult;

  it("holds: no import back up a layer or across one, no circle", async () => {
    result = await cruiseIn(root, cruised);
    expect(result.summary.totalCruised).toBeGreaterThan(400);
    expect(violations(result)).toEqual([]);
  }, 120_000);

  it("covers every module: each is in a unit of a layer", () => {
    const units = layers.flat().flatMap(foldersOf);
    const inUnit = (path: string) => units.some((unit) => (unit.endsWith(".ts") ? path === unit : path.startsWith(`${unit}/`)));
    const outside = result.modules
      .filter((module) => !module.coreModule && !module.couldNotResolve && !module.source.includes("node_modules/"))
      .map((module) => module.source)
      .filter((source) => !inUnit(source));
    expect(outside).toEqual([]);
  });

  describe("fails on a known-bad tree", () => {
    const tree = mkdtempSync(join(tmpdir(), "layers-"));
    afterAll(() => rmSync(tree, { recursive: true, force: true }));
    const files: Record<string, string> = {
      // Back up: the client (layer 1) importing the store (layer 5); shipped code importing scripts/.
      "client/index.ts": 'import { store } from "../server/store/memory.js";\nexport const client = store;\n',
      "server/stubs/plan.ts": 'import { diff } from "../../scripts/diff/operations.js";\nexport const plan = diff;\n',
      // Across: two units of one layer (the mock and the conformance suite).
      "mock/index.ts": 'import { suite } from "../conformance/index.js";\nexport const mock = suite;\n',
      // A circle inside one unit.
      "conformance/index.ts": 'import { b } from "./b.js";\nexport const suite = b;\nexport const a = 1;\n',
      "conformance/b.ts": 'import { a } from "./index.js";\nexport const b = a;\n',
      // Down, as allowed: the store on the rules.
      "server/store/memory.ts": 'import { rule } from "../rules/order.js";\nexport const store = rule;\n',
      "server/rules/order.ts": "export const rule = 1;\n",
      "scripts/diff/operations.ts": "export const diff = 1;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    }

    it("reports each bad import and the circle, and nothing else", async () => {
      const bad = await cruiseIn(tree, ["client", "server", "mock", "conformance", "scripts"]);
      expect(violations(bad)).toEqual([
        "layer 1: client: client/index.ts → server/store/memory.ts",
        "layer 6: server/stubs: server/stubs/plan.ts → scripts/diff/operations.ts",
        "layer 7: mock: mock/index.ts → conformance/index.ts",
        // A circle is reported once, from the module the cruise met first in it.
        "no-circular: conformance/b.ts → conformance/index.ts",
      ]);
    }, 60_000);
  });
});
