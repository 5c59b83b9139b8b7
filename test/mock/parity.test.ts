// The same requests at the mock and the reference server (test/mock/parity.ts): every
// difference that remains is listed in docs/mock.md's table, and nothing else differs. A
// change that closes or opens a difference fails here until the table says so.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { startServer, type RunningServer } from "../../server/reference-server.js";
import { differences, differenceTable } from "./parity.js";

let mock: RunningMock;
let server: RunningServer;
beforeAll(async () => {
  [mock, server] = await Promise.all([startMock(), startServer({ rateLimit: false, failedAuthLimit: false, cors: { origins: "*" } })]);
});
afterAll(() => Promise.all([mock?.close(), server?.close()]));

/** The table between the parity markers of docs/mock.md. */
function documentedTable(): string {
  const docs = readFileSync(new URL("../../docs/mock.md", import.meta.url), "utf8");
  const found = /<!-- parity:start -->\n([\s\S]*?)\n<!-- parity:end -->/.exec(docs);
  if (!found) throw new Error("docs/mock.md has no <!-- parity:start --> … <!-- parity:end --> table");
  return found[1]!.trim();
}

it("the mock differs from the server exactly where docs/mock.md says (npx tsx test/mock/print-parity.ts prints the table)", { timeout: 120_000 }, async () => {
  const rows = await differences(server.url, mock.url);
  // Every remaining difference is one the mock cannot know without the server's data.
  for (const row of rows) expect(row.server, row.name).toMatch(/^(404 not_found|409 conflict)/);
  expect(differenceTable(rows)).toBe(documentedTable());
});
