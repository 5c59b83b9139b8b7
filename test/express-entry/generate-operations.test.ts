// `npm run generate`'s operations table for a document whose successes are not all a JSON
// 200 envelope (the gadgets test document: 201 beside 200, 204 without a body, text/plain):
// the script writes a row for each, with a null responseType where there is no envelope.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "gadget-operations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("writes a row per operation, 204 and text successes included", async () => {
  const output = join(dir, "operations.ts");
  await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/generate-operations.ts", "test/express-entry/gadgets/openapi.json", output]);
  const { operations } = (await import(pathToFileURL(output).href)) as { operations: Record<string, unknown> };
  const row = { list: false, responseType: null, security: ["bearerAuth"] };
  expect(operations).toEqual({
    createGadget: { ...row, method: "post", path: "/gadgets", successStatus: 200, hasBody: true },
    readGadget: { ...row, method: "get", path: "/gadgets/{id}", successStatus: 200, hasBody: false },
    deleteGadget: { ...row, method: "delete", path: "/gadgets/{id}", successStatus: 204, hasBody: false },
    readGadgetLabel: { ...row, method: "get", path: "/gadgets/{id}/label", successStatus: 200, hasBody: false },
  });
}, 60_000);
