// What `authsvc-api stubs <dir>` does to a directory, decided without touching it: which
// files to write or delete, and what to tell the team. The operations come from the
// package's operations table (generated/operations.ts); the document the directory was last
// generated from (its `.contract.json`) says what a file held as an untouched stub and what
// the contract changed since (server/document/operation-changes.ts).
//
// A module is implemented when its code differs from the stub of its operation under the
// current document and under the previous one (formatting aside, templates.ts sameCode):
// nothing to remember, no marker to delete, and an implemented handler is never written to,
// whatever it holds.
//
// The previous document is the directory's, so anyone who can commit to it can edit it: it
// is read within bounds (snapshot.ts, the inlining budget of operation-changes.ts), an
// operationId in it that is not an identifier names no file, and a file it names for a
// removed operation is deleted only while it is an untouched stub and named to the team only
// while it declares that operation's handler: an edited snapshot can make the command
// neither delete nor point at a file of the team's own.
import { operationChanges, type OperationChange } from "../document/operation-changes.js";
import { operationsOf, type ApiDocument } from "../document/load.js";
import { SnapshotError, prettierJson } from "./snapshot.js";
import { indexModule, sameCode, stubFile, stubModule, type StubOperation } from "./templates.js";

/** Where the document a directory was generated from is kept, beside its modules. */
export const snapshotFile = ".contract.json";
export const indexFile = "index.ts";

export type Outcome =
  /** A stub written where there was no file. */
  | "new"
  /** An untouched stub rewritten (its operation moved) or left as it is. */
  | "stub"
  /** A handler that differs from its stub: never written to. */
  | "implemented"
  /** An untouched stub of an operation the contract removed: deleted. */
  | "deleted";

export interface FileOutcome {
  file: string;
  operationId: string;
  operation: string;
  outcome: Outcome;
  /** The contract's change to this operation since the last run, if any. */
  change?: OperationChange;
}

export interface StubPlan {
  /** File name → content to write (modules, index.ts, the snapshot). */
  writes: Map<string, string>;
  deletes: string[];
  files: FileOutcome[];
  /** index.ts was edited by the team: left as is, `added`/`removed` name what to change by hand. */
  editedIndex?: { added: string[]; removed: string[] };
  /** The contract's versions: the last run's (undefined on a first run) and this one's. */
  versions: { previous?: string; current: string };
  /** Operations whose stub answers a 501 the document does not declare for them. */
  undeclared501: string[];
}

const validIdentifier = /^[A-Za-z_$][\w$]*$/;

/** What a removed operation's module must declare to be named as its handler (the stub's own declaration, kept when implemented). */
const declaresHandler = (content: string, operationId: string) => new RegExp(`\\bHandler<\\s*["'\`]${operationId.replace(/\$/g, "\\$")}["'\`]`).test(content);

/** The operations of the previous document that can name a module; SnapshotError (one line) when it cannot be read as a document. */
function previousOperations(previous: ApiDocument): StubOperation[] {
  try {
    return operationsOf(previous)
      .filter(({ operationId }) => typeof operationId === "string" && validIdentifier.test(operationId))
      .map(({ operationId, method, path }) => ({ operationId, method, path }));
  } catch (error) {
    throw new SnapshotError(`cannot be read as a document: ${(error as Error).message.split("\n")[0]}`);
  }
}

/** The modules a run may read: the map, and the module of every operation of the current and the previous document. */
export function modulesToRead(table: Readonly<Record<string, unknown>>, previous: ApiDocument | undefined): string[] {
  const ids = [...Object.keys(table), ...(previous ? previousOperations(previous).map((operation) => operation.operationId) : [])];
  return [indexFile, ...new Set(ids.map(stubFile))];
}

/**
 * The plan for a directory holding `existing` (file name → content, `null` for a file too
 * large to be a stub, left unread), from the operations table and document of the installed
 * package and the directory's previous snapshot. Throws SnapshotError for a snapshot it
 * cannot compare with.
 */
export function planStubs(options: {
  table: Readonly<Record<string, { method: string; path: string }>>;
  document: ApiDocument;
  previous?: ApiDocument;
  existing: ReadonlyMap<string, string | null>;
}): StubPlan {
  const { table, document, previous, existing } = options;
  const current: StubOperation[] = Object.entries(table).map(([operationId, { method, path }]) => ({ operationId, method, path }));
  const bad = current.filter((operation) => !validIdentifier.test(operation.operationId));
  if (bad.length > 0) throw new Error(`operationIds that are not identifiers cannot name a module's export: ${bad.map((o) => o.operationId).join(", ")}`);
  const before = new Map((previous ? previousOperations(previous) : []).map((operation) => [operation.operationId, operation]));
  let changes: Map<string, OperationChange>;
  try {
    changes = new Map((previous ? operationChanges(previous, document) : []).map((change) => [change.operationId, change]));
  } catch (error) {
    throw new SnapshotError(`cannot be compared with: ${(error as Error).message.split("\n")[0]}`);
  }

  const writes = new Map<string, string>();
  const deletes: string[] = [];
  const files: FileOutcome[] = [];
  const describe = (operation: StubOperation) => `${operation.method.toUpperCase()} ${operation.path}`;
  const isStub = (content: string | null | undefined, ...operations: (StubOperation | undefined)[]) =>
    typeof content === "string" && operations.some((operation) => operation && sameCode(content, stubModule(operation)));

  for (const operation of current) {
    const file = stubFile(operation.operationId);
    const content = existing.get(file);
    const change = changes.get(operation.operationId);
    const base = { file, operationId: operation.operationId, operation: describe(operation), ...(change ? { change } : {}) };
    if (content === undefined) {
      writes.set(file, stubModule(operation));
      files.push({ ...base, outcome: "new" });
    } else if (content !== null && isStub(content, operation, before.get(operation.operationId))) {
      // Rewritten only when it is the stub of the operation before it moved: a formatted one stays as the team formatted it.
      if (!sameCode(content, stubModule(operation))) writes.set(file, stubModule(operation));
      files.push({ ...base, outcome: "stub" });
    } else files.push({ ...base, outcome: "implemented" });
  }
  const kept = new Set(current.map((operation) => operation.operationId));
  for (const [operationId, operation] of before) {
    if (kept.has(operationId)) continue;
    const file = stubFile(operationId);
    const content = existing.get(file);
    const base = { file, operationId, operation: describe(operation), ...(changes.has(operationId) ? { change: changes.get(operationId)! } : {}) };
    if (isStub(content, operation)) {
      deletes.push(file);
      files.push({ ...base, outcome: "deleted" });
    } else if (typeof content === "string" && declaresHandler(content, operationId)) files.push({ ...base, outcome: "implemented" });
  }

  // The map: rewritten while it is the one this command wrote (for this or the last contract).
  const index = existing.get(indexFile);
  const ids = current.map((operation) => operation.operationId);
  let editedIndex: StubPlan["editedIndex"];
  if (index === undefined || (index !== null && (sameCode(index, indexModule(ids)) || sameCode(index, indexModule([...before.keys()]))))) {
    if (index === undefined || !sameCode(index, indexModule(ids))) writes.set(indexFile, indexModule(ids));
  } else {
    editedIndex = { added: ids.filter((id) => !before.has(id)), removed: [...before.keys()].filter((id) => !kept.has(id)) };
  }
  writes.set(snapshotFile, prettierJson(document));

  const undeclared501 = operationsOf(document)
    .filter(({ operation }) => !(operation.responses && "501" in operation.responses))
    .map(({ operationId }) => operationId);
  return {
    writes,
    deletes,
    files,
    ...(editedIndex ? { editedIndex } : {}),
    versions: { ...(previous ? { previous: previous.info.version } : {}), current: document.info.version },
    undeclared501,
  };
}
