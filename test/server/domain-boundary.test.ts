// The domain (server/domain/) stays framework-free: every module it reaches, following its
// relative imports (the generated types included), imports no package at all, neither
// Express, pg, pino, the validator nor anything else. Read from the source text, so a type-only
// import counts too: a domain type naming an Express type would tie its users to Express.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const domain = join(root, "server/domain");

/** The file a relative specifier names (`./x.js` is `./x.ts` or `./x.d.ts` in the source). */
function resolve(from: string, specifier: string): string {
  const base = join(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, ".ts"), base.replace(/\.js$/, ".d.ts")];
  const found = candidates.find((candidate) => existsSync(candidate) && candidate.match(/\.tsx?$/));
  if (found === undefined) throw new Error(`${relative(root, from)}: cannot resolve ${specifier}`);
  return found;
}

/** Every module reachable from `entries`, with the package specifiers each imports. */
function importGraph(entries: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (graph.has(file)) continue;
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const specifiers = importedFiles.map((imported) => imported.fileName);
    graph.set(
      file,
      specifiers.filter((specifier) => !specifier.startsWith(".")),
    );
    for (const specifier of specifiers.filter((specifier) => specifier.startsWith("."))) pending.push(resolve(file, specifier));
  }
  return graph;
}

describe("server/domain/", () => {
  const entries = readdirSync(domain)
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(domain, name));
  const graph = importGraph(entries);

  it("reaches the port, the resources and the generated types it is built on", () => {
    const reached = [...graph.keys()].map((file) => relative(root, file)).sort();
    expect(reached).toEqual(
      expect.arrayContaining(["server/domain/index.ts", "server/domain/store.ts", "server/domain/resources.ts", "generated/schema.d.ts", "generated/operations.ts"]),
    );
  });

  it("imports no package (no Express, pg, pino or validator), directly or through a module it imports", () => {
    const packages = [...graph].flatMap(([file, specifiers]) => specifiers.map((specifier) => `${relative(root, file)} imports ${specifier}`));
    expect(packages).toEqual([]);
  });

  it("reaches nothing outside the domain and the generated types", () => {
    const outside = [...graph.keys()].map((file) => relative(root, file)).filter((file) => !file.startsWith("server/domain/") && !file.startsWith("generated/"));
    expect(outside).toEqual([]);
  });

  it("the reading finds a package import where there is one (the check is not blind)", () => {
    const express = importGraph([join(root, "server/contract-layer/contract.ts")]);
    expect([...express.values()].flat()).toContain("pino");
  });
});
