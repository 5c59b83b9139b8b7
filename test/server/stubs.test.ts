// `authsvc-api stubs` decided in memory (server/stubs/plan.ts) and the handler-side contract
// diff behind its report (server/document/operation-changes.ts): a first run writes a stub per
// operation and the map; a rerun after a contract update adds the new operation, rewrites
// untouched stubs, never writes to an implemented handler, deletes the untouched stub of a
// removed operation, leaves an edited map alone saying what to change, and names the
// change an implemented handler must follow. The packed command in a service's own
// project: test/package/backend-consumer.test.ts.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { run } from "../../cli/stubs.js";
import { operations } from "../../generated/operations.js";
import { InlineBudgetExceeded, inlineBudget, operationChanges } from "../../server/document/operation-changes.js";
import { operationsOf } from "../../server/document/load.js";
import { indexModule, stubModule } from "../../server/stubs/templates.js";
import { planStubs, type StubPlan } from "../../server/stubs/plan.js";
import { changedContract, nextMinor } from "../support/changed-contract.js";
import { doc } from "../support/document.js";

const changed = changedContract(doc);
const tableOf = (document: typeof doc) => Object.fromEntries(operationsOf(document).map((o) => [o.operationId, { method: o.method, path: o.path }]));
/** The directory after a plan ran: the files it held, plus the writes, minus the deletes. */
const applied = (existing: ReadonlyMap<string, string>, plan: StubPlan) => {
  const files = new Map([...existing, ...plan.writes]);
  for (const file of plan.deletes) files.delete(file);
  return files;
};

describe("the first run", () => {
  const plan = planStubs({ table: operations, document: doc, existing: new Map() });

  it("writes one stub per operation of the table, the map over them and the snapshot", () => {
    const ids = Object.keys(operations);
    expect([...plan.writes.keys()].sort()).toEqual([...ids.map((id) => `${id}.ts`), "index.ts", ".contract.json"].sort());
    expect(plan.writes.get("readWidget.ts")).toContain(
      'export const readWidget: Handler<"readWidget"> = () => {\n  throw new ApiProblem("not_implemented", "GET /widgets/{id}',
    );
    for (const id of ids) expect(plan.writes.get("index.ts")).toContain(`import { ${id} } from "./${id}.js";`);
    expect(JSON.parse(plan.writes.get(".contract.json")!)).toEqual(doc);
    expect(plan.files.every((file) => file.outcome === "new" && !file.change)).toBe(true);
  });

  it("finds a documented 501 on every operation (a stub's answer passes the response check)", () => {
    expect(plan.undeclared501).toEqual([]);
    const without = structuredClone(doc);
    delete without.paths["/webhooks"].get.responses["501"];
    expect(planStubs({ table: operations, document: without, existing: new Map() }).undeclared501).toEqual(["findWebhooks"]);
  });
});

describe("a rerun after a contract update", () => {
  const first = planStubs({ table: operations, document: doc, existing: new Map() });
  const implemented = `import type { Handler } from "@authsvc/app-api-server/express";\nexport const readWidget: Handler<"readWidget"> = () => { throw new Error("mine"); };\n`;
  const existing = applied(new Map(), first);
  existing.set("readWidget.ts", implemented);
  const plan = planStubs({ table: tableOf(changed), document: changed, previous: doc, existing });

  it("never writes to an implemented handler, and names what it must follow", () => {
    expect(plan.writes.has("readWidget.ts")).toBe(false);
    expect(plan.files.find((file) => file.operationId === "readWidget")).toMatchObject({
      outcome: "implemented",
      change: { kind: "changed", details: ["200 response: result required changed: + label", "200 response: result.label added"] },
    });
  });

  it("adds the new operation's stub and rewrites the map; untouched stubs stay stubs", () => {
    expect(plan.writes.get("deleteGadget.ts")).toBe(stubModule({ operationId: "deleteGadget", method: "delete", path: "/gadgets/{id}" }));
    expect(plan.files.find((file) => file.operationId === "deleteGadget")).toMatchObject({ outcome: "new", change: { kind: "added" } });
    expect(plan.writes.get("index.ts")).toBe(indexModule(Object.keys(tableOf(changed))));
    expect(plan.files.filter((file) => file.outcome === "stub")).toHaveLength(Object.keys(operations).length - 1);
    const version = doc.info.version as string;
    expect(plan.versions).toEqual({ previous: version, current: nextMinor(version) });
  });

  it("deletes the untouched stub of a removed operation, reports an implemented one, and leaves an edited map", () => {
    const back = applied(existing, plan);
    back.set("index.ts", `${back.get("index.ts")}// mine\n`);
    // Back to the first document: deleteGadget (an untouched stub) is removed.
    const revert = planStubs({ table: operations, document: doc, previous: changed, existing: back });
    expect(revert.deletes).toEqual(["deleteGadget.ts"]);
    expect(revert.writes.has("index.ts")).toBe(false);
    expect(revert.editedIndex).toEqual({ added: [], removed: ["deleteGadget"] });
    // Implemented: it still declares the operation's handler, as its stub did.
    back.set(
      "deleteGadget.ts",
      'import type { Handler } from "@authsvc/app-api-server/express";\nexport const deleteGadget: Handler<"deleteGadget"> = async () => ({ status: 204 });\n',
    );
    const kept = planStubs({ table: operations, document: doc, previous: changed, existing: back });
    expect(kept.deletes).toEqual([]);
    expect(kept.files.find((file) => file.operationId === "deleteGadget")).toMatchObject({ outcome: "implemented", change: { kind: "removed" } });
    // Not a handler of that operation (what an edited snapshot can name): neither deleted nor named.
    back.set("deleteGadget.ts", "export const deleteGadget = 1;\n");
    const other = planStubs({ table: operations, document: doc, previous: changed, existing: back });
    expect(other.deletes).toEqual([]);
    expect(other.files.find((file) => file.operationId === "deleteGadget")).toBeUndefined();
  });

  it("a stub a formatter rewrote (Prettier's wrap, single quotes, CRLF) is still a stub: kept as formatted, rewritten if its operation moved, deleted if removed; a changed word is an implementation", () => {
    // What Prettier (printWidth 80, singleQuote, semi: false) and a CRLF checkout make of a stub.
    const formatted = (text: string) =>
      text
        .replace(/throw new ApiProblem\("not_implemented", (".*?")\);/, 'throw new ApiProblem(\n    "not_implemented",\n    $1,\n  );')
        .replace(/"/g, "'")
        .replace(/;$/gm, "")
        .replace(/\n/g, "\r\n");
    const files = applied(new Map(), first);
    for (const [file, text] of files) if (file.endsWith(".ts")) files.set(file, formatted(text));
    expect(files.get("readWidget.ts")).not.toBe(first.writes.get("readWidget.ts"));
    const same = planStubs({ table: operations, document: doc, previous: doc, existing: files });
    expect(same.files.every((file) => file.outcome === "stub")).toBe(true);
    expect([...same.writes.keys()]).toEqual([".contract.json"]);
    expect(same.editedIndex).toBeUndefined();

    const moved = structuredClone(doc);
    moved.paths["/widget/{id}"] = moved.paths["/widgets/{id}"];
    delete moved.paths["/widgets/{id}"];
    const rerun = planStubs({ table: tableOf(moved), document: moved, previous: doc, existing: files });
    expect([...rerun.writes.keys()].sort()).toEqual([".contract.json", "readWidget.ts"]);
    expect(rerun.files.filter((file) => file.outcome === "implemented")).toEqual([]);

    const withGadget = applied(files, plan);
    withGadget.set("deleteGadget.ts", formatted(withGadget.get("deleteGadget.ts")!));
    expect(planStubs({ table: operations, document: doc, previous: changed, existing: withGadget }).deletes).toEqual(["deleteGadget.ts"]);

    const formattedStub = files.get("readWidget.ts")!;
    // Words changed, joined or split are changes, whitespace or not.
    for (const [from, to] of [
      ["not implemented by this service yet", "not implemented here yet"],
      ["by this service", "bythisservice"],
      ["throw new ApiProblem", "throw newApiProblem"],
    ] as const) {
      files.set("readWidget.ts", formattedStub.replace(from, to));
      const outcome = planStubs({ table: operations, document: doc, previous: doc, existing: files }).files.find((file) => file.operationId === "readWidget")?.outcome;
      expect(outcome, to).toBe("implemented");
    }
  });

  it("rewrites an untouched stub whose operation moved", () => {
    const moved = structuredClone(doc);
    moved.paths["/widget/{id}"] = moved.paths["/widgets/{id}"];
    delete moved.paths["/widgets/{id}"];
    const rerun = planStubs({ table: tableOf(moved), document: moved, previous: doc, existing: applied(new Map(), first) });
    expect(rerun.writes.get("readWidget.ts")).toContain('"GET /widget/{id} is not implemented');
    expect(rerun.files.find((file) => file.operationId === "readWidget")?.change?.details).toEqual(["moved from GET /widgets/{id}"]);
  });
});

describe("the handler-side diff", () => {
  it("refuses a document whose $refs inline past its budget, by nodes (a fan-out) or by depth (a chain), in a bounded time", () => {
    const fanOut = structuredClone(doc);
    for (let i = 0; i < 22; i++)
      fanOut.components.schemas[`Fan${i}`] = {
        type: "object",
        properties: { a: { $ref: `#/components/schemas/Fan${i + 1}` }, b: { $ref: `#/components/schemas/Fan${i + 1}` } },
      };
    fanOut.components.schemas.Fan22 = { type: "string" };
    fanOut.paths["/widgets/{id}"].get.responses["200"].content["application/json"].schema = { $ref: "#/components/schemas/Fan0" };
    expect(() => operationChanges(fanOut, doc)).toThrow(new InlineBudgetExceeded(`its $refs inline to more than ${inlineBudget.nodes} nodes (a $ref fan-out)`));
    const chain = structuredClone(doc);
    for (let i = 0; i < 200; i++) chain.components.schemas[`Link${i}`] = { type: "array", items: { $ref: `#/components/schemas/Link${i + 1}` } };
    chain.components.schemas.Link200 = { type: "string" };
    chain.paths["/widgets/{id}"].get.responses["200"].content["application/json"].schema = { $ref: "#/components/schemas/Link0" };
    expect(() => operationChanges(chain, doc)).toThrow(new InlineBudgetExceeded(`its $refs inline deeper than ${inlineBudget.depth} levels`));
    // The package's own document is far inside both.
    expect(operationChanges(doc, doc)).toEqual([]);
  });

  it("follows a $ref only to the document's own members", () => {
    const edited = structuredClone(doc);
    edited.paths["/widgets/{id}"].get.responses["200"] = { $ref: "#/__proto__/constructor" };
    expect(() => operationChanges(edited, doc)).toThrow("Cannot resolve $ref #/__proto__/constructor: dangling");
  });

  it("ignores what a handler need not follow: descriptions, examples, extensions", () => {
    const edited = structuredClone(doc);
    edited.components.schemas.Widget.description = "Another text.";
    edited.paths["/webhooks"].get["x-codeSamples"] = [];
    edited.paths["/webhooks"].get.summary = "Another summary";
    expect(operationChanges(doc, edited)).toEqual([]);
  });

  it("sees a property named like an annotation, a parameter and a request body change", () => {
    const edited = structuredClone(doc);
    edited.components.schemas.Widget.properties.description = { type: "string" };
    edited.paths["/webhooks"].get.parameters.push({ in: "query", name: "event", schema: { type: "string" } });
    const changes = operationChanges(doc, edited);
    expect(changes.map((change) => [change.operationId, change.details])).toEqual([
      ["readWidget", ["200 response: result.description added"]],
      ["findWebhooks", ["query parameter event added"]],
    ]);
  });
});

describe("the command", () => {
  const dir = mkdtempSync(join(tmpdir(), "stubs-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const quiet = () => [vi.spyOn(console, "log").mockImplementation(() => {}), vi.spyOn(console, "error").mockImplementation(() => {})] as const;

  it("writes into a directory, and a rerun writes nothing to an edited module", async () => {
    const [log] = quiet();
    expect(await run([join(dir, "handlers")])).toBe(0);
    expect(readdirSync(join(dir, "handlers")).sort()).toEqual([".contract.json", "index.ts", ...Object.keys(operations).map((id) => `${id}.ts`)].sort());
    writeFileSync(join(dir, "handlers/readWidget.ts"), "// mine\n");
    expect(await run([join(dir, "handlers")])).toBe(0);
    expect(readFileSync(join(dir, "handlers/readWidget.ts"), "utf8")).toBe("// mine\n");
    expect(log.mock.calls.at(-1)?.[0]).toContain("1 implemented (not touched)");
    vi.restoreAllMocks();
  });

  it("refuses bad arguments with one line and exit 2, a file for a directory with exit 1", async () => {
    const [, error] = quiet();
    expect(await run([])).toBe(2);
    expect(await run(["a", "b"])).toBe(2);
    expect(await run(["--force", "a"])).toBe(2);
    expect(error.mock.calls.map(([line]) => String(line).split("\n").length)).toEqual([1, 1, 1]);
    writeFileSync(join(dir, "file"), "");
    expect(await run([join(dir, "file")])).toBe(1);
    expect(error.mock.calls.at(-1)?.[0]).toContain("is not a directory");
    vi.restoreAllMocks();
  });
});
