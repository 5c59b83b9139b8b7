// docs/backend.md's two option tables list every option of `createContractApp` and of
// `listen`: the names come from the real types (a Record over their keys, so an option added
// to a type without a line here fails `tsc`), and the tables must name exactly those.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ContractAppOptions } from "../../server/contract-layer/app.js";
import type { ListenOptions } from "../../server/contract-layer/listen.js";

const contractAppOptions: Record<keyof ContractAppOptions, true> = {
  handlers: true,
  missingHandlers: true,
  authenticate: true,
  logger: true,
  validateResponses: true,
  rateLimit: true,
  failedAuthLimit: true,
  concurrencyLimit: true,
  addressInFlight: true,
  trustProxy: true,
  cors: true,
  document: true,
  basePath: true,
  unmatched: true,
  context: true,
};

const listenOptions: Record<keyof ListenOptions, true> = {
  port: true,
  host: true,
  requestTimeoutMs: true,
  closeTimeoutMs: true,
  idleGraceMs: true,
  signals: true,
  drainDelayMs: true,
  onSignal: true,
  onClosed: true,
  onCloseError: true,
};

const docs = readFileSync(new URL("../../docs/backend.md", import.meta.url), "utf8");

/** The option names in the first column of the table under `heading` (`name` or `name(args)`, several per cell). */
function tableOptions(heading: string): string[] {
  const section = docs.slice(docs.indexOf(heading), docs.indexOf("\n## ", docs.indexOf(heading) + 1));
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1]!.matchAll(/`(\w+)/g)].map((match) => match[1]!))
    .sort();
}

describe("docs/backend.md lists every option", () => {
  it("of createContractApp", () => {
    expect(tableOptions("## Options of `createContractApp`")).toEqual(Object.keys(contractAppOptions).sort());
  });

  it("of listen", () => {
    expect(tableOptions("## Lifecycle: `listen`")).toEqual(Object.keys(listenOptions).sort());
  });
});
