// The labelled corpus against `redocly diff` (the version package.json pins) under the
// project's policy (openapi/redocly.yaml `diff:` and scripts/diff/policy.ts): each change
// needs the release it is labelled with and is named by its rule; every rule of the policy
// is named by some entry; the unchanged document differs in nothing. Redocly runs as a
// process (its engine is bundled inside the CLI), a few at a time.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonical } from "../../scripts/diff/canonical.js";
import { judge, type DiffResult } from "../../scripts/diff/index.js";
import { ownRules } from "../../scripts/diff/policy.js";
import { diffArgs, parseReport, policyConfig, redocly, redoclyEnv } from "../../scripts/diff/redocly.js";
import { doc } from "../support/document.js";
import { root } from "../tooling/run.js";
import { corpus } from "./corpus.js";

const dir = mkdtempSync(join(tmpdir(), "contract-corpus-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function diff(name: string, base: object, head: object): Promise<DiffResult> {
  const baseFile = join(dir, `${name}-base.json`);
  const headFile = join(dir, `${name}-head.json`);
  // The canonical spelling the project's diff gives Redocly (scripts/diff/canonical.ts).
  writeFileSync(baseFile, JSON.stringify(canonical(base as never)));
  writeFileSync(headFile, JSON.stringify(canonical(head as never)));
  return new Promise((resolve, reject) =>
    execFile(redocly, diffArgs(baseFile, headFile), { env: redoclyEnv, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(judge(parseReport(stdout))),
    ),
  );
}

const results = new Map<string, DiffResult>();
let identity: DiffResult;

beforeAll(async () => {
  const jobs: [string, () => Promise<DiffResult>][] = corpus.map((entry, i) => [
    entry.name,
    () => {
      const base = structuredClone(doc);
      entry.prepare?.(base);
      const head = structuredClone(base);
      entry.change(head);
      return diff(String(i), base, head);
    },
  ]);
  jobs.push(["(identity)", () => diff("identity", doc, structuredClone(doc))]);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const [name, job] = jobs[next++]!;
      results.set(name, await job());
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, availableParallelism()) }, worker));
  identity = results.get("(identity)")!;
}, 600_000);

const summary = (result: DiffResult) => result.changes.map((c) => `${c.impact} ${c.rules.join(",") || c.kind} ${c.path} ${c.property ?? ""}`).join("\n");

describe("the labelled corpus under redocly diff and the project's policy", () => {
  it("holds at least 70 changes with distinct names", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(70);
    expect(new Set(corpus.map((c) => c.name)).size).toBe(corpus.length);
  });

  it("names every rule of the policy, each by an entry of the impact the policy gives it", () => {
    const section = /^diff:\n((?:(?:  .*)?\n)+)/m.exec(readFileSync(policyConfig, "utf8"))?.[1] ?? "";
    const configured = Object.fromEntries([...section.matchAll(/^  ([a-z-]+): (\w+)$/gm)].map((m) => [m[1], m[2]]));
    const policy = { ...configured, [ownRules.requestDefault]: "major", [ownRules.requestEnum]: "minor", [ownRules.deprecation]: "minor" };
    const named = Object.fromEntries(corpus.filter((c) => c.rule).map((c) => [c.rule!, c.impact]));
    expect(named).toEqual(policy);
  });

  it("the unchanged document differs in nothing", () => {
    expect(identity.changes).toEqual([]);
  });

  it.each(corpus)("$name: needs a $impact release", ({ name, impact }) => {
    const result = results.get(name)!;
    expect(result.required, summary(result)).toBe(impact);
    expect(result.failed).toBe(impact !== "patch"); // both sides carry the same version
  });

  it.each(corpus.filter((entry) => entry.rule !== undefined))("$name: named by $rule", ({ name, impact, rule }) => {
    const result = results.get(name)!;
    expect(
      result.changes.filter((c) => c.impact === impact).flatMap((c) => c.rules),
      summary(result),
    ).toContain(rule);
  });
});

it("runs the Redocly CLI version package.json pins", () => {
  const pinned = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies["@redocly/cli"];
  const installed = JSON.parse(readFileSync(join(root, "node_modules/@redocly/cli/package.json"), "utf8")).version;
  expect(installed).toBe(pinned);
});
