// What an operation of the document needs besides its OpenAPI text, checked for any
// document and operations table (the real ones, or a temporary copy with one more
// operation): a handler in the server's map, the conformance suite's valid call, bad inputs
// and id fixture, and examples. Each missing piece is named, so adding an operation fails
// on exactly what is left to write (docs/adding-an-operation.md).
import { badInputs } from "../../conformance/contract-checks.js";
import { clientCalls, idFixtures } from "../../conformance/calls.js";
import { createHandlers } from "../../server/handlers/index.js";
import { loadSeed } from "../../server/seed/load.js";
import { deref as derefIn } from "../../server/document/walk.js";
import { createStore } from "../../server/store/memory.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = any;

/** A row of an operations table (generated/operations.ts or one generated from a copy). */
export interface OperationRow {
  method: string;
  path: string;
  successStatus: number;
  hasBody: boolean;
}

export type Piece = "handler" | "conformance check" | "example";

export interface Missing {
  operationId: string;
  piece: Piece;
  /** Where to add it. */
  detail: string;
}

/** The operationIds each piece is written for; by default this repository's. */
export interface Written {
  handlers: string[];
  conformanceCalls: string[];
  badInputs: string[];
  idFixtures: string[];
}

export function writtenHere(): Written {
  return {
    handlers: Object.keys(createHandlers({ store: createStore(loadSeed()), clock: () => new Date() })),
    conformanceCalls: Object.keys(clientCalls),
    badInputs: Object.keys(badInputs),
    idFixtures: Object.keys(idFixtures),
  };
}

/** Every piece missing for the operations of `table` in `doc`, in table order. */
export function missingPieces(doc: Node, table: Record<string, OperationRow>, written: Written = writtenHere()): Missing[] {
  const deref = (node: Node): Node => derefIn(doc, node);
  const missing: Missing[] = [];
  for (const [operationId, { method, path, successStatus, hasBody }] of Object.entries(table)) {
    const add = (piece: Piece, detail: string) => missing.push({ operationId, piece, detail });
    const op = doc.paths[path][method];

    if (!written.handlers.includes(operationId)) add("handler", "server/handlers/ (registered in createHandlers, server/handlers/index.ts)");

    const conformance = [
      ...(written.conformanceCalls.includes(operationId) ? [] : ["its valid call (conformance/calls.ts clientCalls)"]),
      ...(written.badInputs.includes(operationId) ? [] : ["its bad inputs (conformance/contract-checks.ts badInputs)"]),
      ...(path.includes("{id}") && !written.idFixtures.includes(operationId) ? ["the fixture of its {id} (conformance/calls.ts idFixtures)"] : []),
    ];
    if (conformance.length > 0) add("conformance check", conformance.join("; "));

    const success = deref(op.responses?.[String(successStatus)])?.content?.["application/json"];
    const body = hasBody ? deref(op.requestBody)?.content?.["application/json"] : undefined;
    const id = (op.parameters ?? []).map(deref).find((p: Node) => p.in === "path" && p.name === "id");
    const examples = [
      ...(success && Object.keys(success.examples ?? {}).length === 0 ? [`a ${successStatus} response example`] : []),
      ...(hasBody && Object.keys(body?.examples ?? {}).length === 0 ? ["a request body example"] : []),
      ...(id && id.example === undefined ? ["an example of the {id} parameter"] : []),
    ];
    if (examples.length > 0) add("example", examples.join("; "));
  }
  return missing;
}
