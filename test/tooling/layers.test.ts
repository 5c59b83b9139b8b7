// One way down: dependency-cruiser over the repository's code with the rules of
// .dependency-cruiser.mjs (the layer order, no circle), as `npm run lint:layers` runs it, reports nothing; every folder with code
// is in a layer, so a new one cannot slip past the rules; and the same rules over a small
// tree of known-bad imports (one back up a layer, one between two units of a layer, a
// circle) report each of them, and nothing for the good import beside them. CONTRIBUTING.md's
// map names every folder with its layer and the packages that ship it, as the imports say.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { type ICruiseOptions, type ICruiseResult, type IForbiddenRuleType, cruise } from "dependency-cruiser";
import { afterAll, describe, expect, it } from "vitest";
import { copies, packageNames } from "../../scripts/build.js";

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

  it("is the map CONTRIBUTING.md draws: every folder, its layer, the packages that ship it", () => {
    const rows = new Map(
      [...readFileSync(join(root, "CONTRIBUTING.md"), "utf8").matchAll(/^\| `([^`]+)` \| ([^|]+) \| ([^|]+) \| .+ \|$/gm)].map(([, folder, layer, shipped]) => [
        folder!.replace(/\/$/, ""),
        { layer: layer!.trim(), shipped: shipped!.trim() },
      ]),
    );
    // Every top-level folder git tracks, with server/ drawn folder by folder and file by file.
    const tracked = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((file) => file.includes("/"));
    const folders = new Set(tracked.map((file) => (file.startsWith("server/") ? file.split("/").slice(0, 2).join("/") : file.split("/")[0]!)));
    expect([...rows.keys()].sort()).toEqual([...folders].sort());

    const layerOf = new Map(layers.flatMap((layer, index) => layer.flatMap((unit) => foldersOf(unit).map((folder) => [folder, String(index)] as const))));
    const unitOf = (path: string) => [...rows.keys()].find((folder) => path === folder || path.startsWith(`${folder}/`));
    // What each package ships: the modules its build compiles (tsc follows every import, type
    // imports too, from packages/<name>/tsconfig.build.json's entries) and the files it copies.
    const dependencies = new Map(
      result.modules.map((module) => [module.source, module.dependencies.filter((d) => !d.coreModule && !d.couldNotResolve).map((d) => d.resolved)]),
    );
    const shippedIn = new Map<string, string[]>();
    for (const name of packageNames) {
      const config = readFileSync(join(root, "packages", name, "tsconfig.build.json"), "utf8").replace(/^\s*\/\/.*$/gm, "");
      const reached = new Set<string>();
      const next = [...(JSON.parse(config) as { include: string[] }).include.map((entry) => normalize(join("packages", name, entry))), ...Object.keys(copies[name]!)];
      while (next.length > 0) {
        const path = next.pop()!;
        if (reached.has(path)) continue;
        reached.add(path);
        next.push(...(dependencies.get(path) ?? []));
      }
      for (const folder of new Set([...reached].map(unitOf))) if (folder) shippedIn.set(folder, [...(shippedIn.get(folder) ?? []), name]);
    }
    const drawn = [...rows].map(([folder, row]) => `${folder}: layer ${row.layer}, shipped in ${row.shipped}`);
    const actual = [...rows.keys()].map((folder) => `${folder}: layer ${layerOf.get(folder) ?? "—"}, shipped in ${shippedIn.get(folder)?.join(", ") ?? "—"}`);
    expect(drawn).toEqual(actual);
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
