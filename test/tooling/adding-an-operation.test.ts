// Follows docs/adding-an-operation.md on a temporary copy of the bundled document with one
// more operation, named after the test document's (test/express-entry/gadgets/) DELETE
// /gadgets/{id} so that it can never be one this API really adds: the operations table is generated from the copy
// by the repository's own script, and the coverage checks (test/support/coverage.ts) name
// exactly what the new operation lacks (its handler, its conformance check, its examples)
// and nothing about the nine. Writing a piece removes exactly its line.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.js";
import { missingPieces, writtenHere, type OperationRow, type Written } from "../support/coverage.js";

const bundle = JSON.parse(readFileSync("generated/openapi.json", "utf8"));
const dir = mkdtempSync(join(tmpdir(), "adding-an-operation-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The copy: DELETE /gadgets/{id} answering a webhook's envelope, without any example. */
function documentWithDelete() {
  const doc = structuredClone(bundle);
  const read = doc.paths["/webhooks/{id}"].get;
  const success = structuredClone(read.responses["200"]);
  const media = success.$ref ? undefined : success.content["application/json"];
  if (media) delete media.examples;
  doc.paths["/gadgets/{id}"] = {};
  doc.paths["/gadgets/{id}"].delete = {
    ...structuredClone(read),
    operationId: "deleteGadget",
    summary: "Delete a gadget",
    parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", pattern: "^whk_[0-9a-f]{12}$" } }],
    responses: { ...structuredClone(read.responses), 200: success },
  };
  return doc;
}

describe("adding an operation", () => {
  const written = writtenHere();
  let doc: ReturnType<typeof documentWithDelete>;
  let table: Record<string, OperationRow>;

  beforeAll(async () => {
    doc = documentWithDelete();
    const input = join(dir, "openapi.json");
    const output = join(dir, "operations.ts");
    writeFileSync(input, JSON.stringify(doc));
    // The step `npm run generate` runs for the table, on the copy.
    await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/generate-operations.ts", input, output]);
    ({ operations: table } = (await import(pathToFileURL(output).href)) as { operations: Record<string, OperationRow> });
  }, 60_000);

  it("this repository's document lacks nothing", () => {
    expect(missingPieces(bundle, operations, written)).toEqual([]);
  });

  it("the generated table of the copy holds the new operation beside the others", () => {
    expect(Object.keys(table).sort()).toEqual([...Object.keys(operations), "deleteGadget"].sort());
    expect(table.deleteGadget).toMatchObject({ method: "delete", path: "/gadgets/{id}" });
  });

  it("names exactly the handler, the conformance check and the examples of the new operation", () => {
    expect(missingPieces(doc, table, written)).toEqual([
      { operationId: "deleteGadget", piece: "handler", detail: "server/handlers/ (registered in createHandlers, server/handlers/index.ts)" },
      {
        operationId: "deleteGadget",
        piece: "conformance check",
        detail:
          "its valid call (conformance/calls.ts clientCalls); its bad inputs (conformance/contract-checks.ts badInputs); the fixture of its {id} (conformance/calls.ts idFixtures)",
      },
      { operationId: "deleteGadget", piece: "example", detail: "a 200 response example; an example of the {id} parameter" },
    ]);
  });

  it("each written piece removes exactly its line", () => {
    const plus = (key: keyof Written): Written => ({ ...written, [key]: [...written[key], "deleteGadget"] });
    const pieces = (w: Written, d = doc) => missingPieces(d, table, w).map((m) => m.piece);

    expect(pieces(plus("handlers"))).toEqual(["conformance check", "example"]);
    const conformance: Written = { ...written, ...Object.fromEntries((["conformanceCalls", "badInputs", "idFixtures"] as const).map((k) => [k, plus(k)[k]])) };
    expect(pieces(conformance)).toEqual(["handler", "example"]);

    const withExamples = structuredClone(doc);
    const op = withExamples.paths["/gadgets/{id}"].delete;
    op.parameters[0].example = "whk_3a7f1c9e5b2d";
    op.responses["200"] = structuredClone(bundle.paths["/webhooks/{id}"].get.responses["200"]);
    expect(pieces(written, withExamples)).toEqual(["handler", "conformance check"]);
  });
});
