// Start-up refuses a handler map that does not match the document: building the app throws,
// naming every operation without a handler and every handler without an operation, and
// `npm start` over a document with one more operation exits 1 with that message.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createContractApp } from "../../server/contract-layer/index.js";
import { createHandlers } from "../../server/handlers/index.js";
import { loadSeed } from "../../server/seed/load.js";
import { createStore } from "../../server/store/memory.js";

const store = createStore(loadSeed());
const complete = createHandlers({ store, clock: () => new Date() });
const bundle = JSON.parse(readFileSync("generated/openapi.json", "utf8"));

/** The bundled document with DELETE /widgets/{id} (deleteWidget) beside GET. */
function documentWithDelete() {
  const doc = structuredClone(bundle);
  const read = doc.paths["/widgets/{id}"].get;
  doc.paths["/widgets/{id}"].delete = { ...structuredClone(read), operationId: "deleteWidget", responses: { 204: { description: "Deleted." } } };
  return doc;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("building the app", () => {
  it("succeeds with one handler per operation", () => {
    expect(() => createContractApp({ handlers: complete, authenticate: store })).not.toThrow();
  });

  it("names every operation without a handler and every handler without an operation", () => {
    const { readWidget: _read, findWebhooks: _find, ...seven } = complete;
    const handlers = { ...seven, readWidgets: complete.readWidget };
    expect(() => createContractApp({ handlers: handlers as never, authenticate: store })).toThrow(
      "The handler map does not match the OpenAPI document: no handler for readWidget (GET /widgets/{id}), findWebhooks (GET /webhooks); no operation for the handler readWidgets.",
    );
  });

  it("names an operation the document gained", () => {
    expect(() => createContractApp({ handlers: complete as never, authenticate: store, document: documentWithDelete() })).toThrow(
      "The handler map does not match the OpenAPI document: no handler for deleteWidget (DELETE /widgets/{id}).",
    );
  });
});

describe("npm start", () => {
  it("exits 1 naming the operation without a handler", async () => {
    // A copy of the server and its document, so the real generated/openapi.json is untouched.
    const dir = mkdtempSync(join(tmpdir(), "startup-refusal-"));
    dirs.push(dir);
    for (const part of ["server", "generated", "package.json"]) cpSync(part, join(dir, part), { recursive: true });
    symlinkSync(join(process.cwd(), "node_modules"), join(dir, "node_modules"), "dir");
    writeFileSync(join(dir, "generated", "openapi.json"), JSON.stringify(documentWithDelete()));

    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const failure = await promisify(execFile)(npm, ["start", "--silent"], { cwd: dir, env: { ...process.env, PORT: "0" } }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure.code).toBe(1);
    expect(failure.stderr.trim()).toBe(
      "Cannot start the reference server: The handler map does not match the OpenAPI document: no handler for deleteWidget (DELETE /widgets/{id}).",
    );
  }, 60_000);
});
