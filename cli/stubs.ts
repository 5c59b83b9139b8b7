// `authsvc-api stubs <dir>`: writes a handler module per operation and the handler map into
// a service's own source tree (server/stubs/plan.ts decides what), and after a contract
// update reports which operations are new, removed, or changed in what their handler reads
// or returns. Implemented handlers are never written to. What it may do to the directory is
// server/stubs/directory.ts; `.contract.json` is read as untrusted input (snapshot.ts) and
// written last, only when every other change was made, so a run that could not finish (a
// stub it could not delete) is run again, and reported again, by the next one.
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { operations } from "../generated/operations.js";
import { loadDocument, type ApiDocument } from "../server/document/load.js";
import { checkWritable, deleteEntry, readEntry, StubsRefusal, writeEntry } from "../server/stubs/directory.js";
import { indexFile, modulesToRead, planStubs, snapshotFile, type FileOutcome, type StubPlan } from "../server/stubs/plan.js";
import { maxSnapshotBytes, parseSnapshot, SnapshotError } from "../server/stubs/snapshot.js";
import { command, UsageError } from "./args.js";

/** A module read to tell a stub from a handler: a stub or the map is a few kB, a larger file is the team's (implemented), not read. */
const maxModuleBytes = 64 * 1024;

const usage = `usage: authsvc-api stubs <dir>

Writes one typed handler module per operation of the installed contract (<operationId>.ts,
each answering the documented 501 not_implemented problem until you implement it) and
index.ts, the handler map (\`handlers\`) to give createContractApp, into <dir> (created if
missing), with ${snapshotFile}, the document they were generated from (commit it).

Run it again after updating the package: it adds modules for new operations, deletes
untouched stubs of removed ones, never writes to a module that differs from its stub (an
implemented handler), and reports the operations added, removed, or changed in their
parameters, request body or success responses since ${snapshotFile}.
It reads, writes and deletes only regular files directly in <dir> (never through a
symbolic link; a FIFO, device or directory in a module's place is refused), reads
${snapshotFile} as untrusted input, and writes ${snapshotFile} last: a run that fails
(a stub it cannot delete) leaves it as it was, so every later run tries again and says so.
Exit code: 0 written, 1 the directory cannot be read or written (or holds something the
command refuses, named on one line), 2 bad arguments.`;

export function run(argv: string[]): Promise<number> {
  return command("stubs", usage, async () => {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options: { help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: true });
    } catch (error) {
      throw new UsageError((error as Error).message.split("\n")[0]);
    }
    if (parsed.values.help) return "help";
    if (parsed.positionals.length !== 1) throw new UsageError("give one directory, e.g. src/handlers");
    const dir = parsed.positionals[0]!;
    try {
      const { plan, undeleted } = write(dir);
      console.log(printable(report(dir, plan, undeleted)));
      for (const [name, reason] of undeleted)
        console.error(
          printable(
            `authsvc-api stubs: could not delete ${join(dir, name)}, the untouched stub of an operation the contract removed (${reason}); ${snapshotFile} stays at contract ${plan.versions.previous}, so every run tries again until the file is gone`,
          ),
        );
      return undeleted.size > 0 ? 1 : 0;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!(error instanceof StubsRefusal) && !(code && /^E[A-Z]+$/.test(code))) throw error;
      console.error(printable(`authsvc-api stubs: ${(error as Error).message.split("\n")[0]}`));
      return 1;
    }
  });
}

/** The directory's previous document, undefined on a first run; SnapshotError when it cannot be one. */
function previousOf(dir: string): ApiDocument | undefined {
  const text = readEntry(dir, snapshotFile, maxSnapshotBytes);
  if (text === null) throw new SnapshotError(`is over ${maxSnapshotBytes} bytes: not read`);
  return text === undefined ? undefined : parseSnapshot(text);
}

/**
 * Plans against what `dir` holds, refuses before any change what it will not touch, then
 * deletes, writes the modules and the map, and last the snapshot, unless a delete failed:
 * the stubs left are returned with the reason.
 */
function write(dir: string): { plan: StubPlan; undeleted: Map<string, string> } {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: "ENOTDIR" });
  mkdirSync(dir, { recursive: true });
  let plan: StubPlan;
  try {
    const previous = previousOf(dir);
    const existing = new Map<string, string | null>();
    for (const name of modulesToRead(operations, previous)) {
      const text = readEntry(dir, name, maxModuleBytes);
      if (text !== undefined) existing.set(name, text);
    }
    plan = planStubs({ table: operations, document: loadDocument(), ...(previous ? { previous } : {}), existing });
  } catch (error) {
    if (error instanceof SnapshotError)
      throw new StubsRefusal(`${join(dir, snapshotFile)} ${error.message}; restore it from version control, or delete it to start over`);
    throw error;
  }
  for (const name of [...plan.writes.keys(), ...plan.deletes]) checkWritable(dir, name);
  const undeleted = new Map<string, string>();
  for (const name of plan.deletes) {
    try {
      deleteEntry(dir, name);
    } catch (error) {
      undeleted.set(name, (error as { code?: string }).code ?? (error as Error).message);
    }
  }
  for (const [name, content] of plan.writes) if (name !== snapshotFile) writeEntry(dir, name, content);
  if (undeleted.size === 0) writeEntry(dir, snapshotFile, plan.writes.get(snapshotFile)!);
  return { plan, undeleted };
}

/**
 * What the report may show of text that came from the directory's snapshot (names, paths,
 * versions): control and bidirectional-override characters escaped, so an edited snapshot
 * cannot move the cursor, recolour or reorder the terminal's text.
 */
const printable = (text: string) =>
  text
    .split("\n")
    .map((line) =>
      (line.length > 400 ? `${line.slice(0, 399)}…` : line).replace(/[\p{Cc}\p{Bidi_Control}]/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`),
    )
    .join("\n");

/** One module's line: what the contract did to its operation (after a first run), what the command did, what is left to do. */
function line(file: FileOutcome, rerun: boolean, undeleted: ReadonlyMap<string, string>): string[] {
  const change = file.change;
  const outcome = file.outcome === "deleted" && undeleted.has(file.file) ? "not deleted" : file.outcome;
  const columns = [...(rerun ? [(change?.kind ?? "").padEnd(8)] : []), outcome.padEnd(12), file.file.padEnd(28), file.operation];
  const todo =
    change?.kind === "removed" && file.outcome === "implemented"
      ? ["      the contract removed it: delete this module"]
      : change?.kind === "changed" && file.outcome === "implemented"
        ? ["      implemented, not touched; follow:", ...change.details.map((detail) => `        ${detail}`)]
        : [];
  return [`  ${columns.join(" ")}`.trimEnd(), ...todo];
}

/** The lines a team reads: one per module (what the contract did to it, what the command did), then a summary. */
function report(dir: string, plan: StubPlan, undeleted: ReadonlyMap<string, string>): string {
  const versions = plan.versions.previous === undefined ? `contract ${plan.versions.current}` : `contract ${plan.versions.previous} → ${plan.versions.current}`;
  const count = (outcome: string) => plan.files.filter((file) => file.outcome === outcome).length;
  const changed = plan.files.filter((file) => file.change);
  const lines = [`authsvc-api stubs: ${dir}, ${versions}, ${Object.keys(operations).length} operations`];
  // Unchanged modules are summed up, not listed, after the first run.
  const rerun = plan.versions.previous !== undefined;
  for (const file of plan.files) if (!rerun || file.change || file.outcome === "new") lines.push(...line(file, rerun, undeleted));
  if (plan.editedIndex && (plan.editedIndex.added.length > 0 || plan.editedIndex.removed.length > 0)) {
    const { added, removed } = plan.editedIndex;
    lines.push(
      `  ${indexFile} is edited, left as is: ${[added.length > 0 ? `add ${added.join(", ")}` : "", removed.length > 0 ? `remove ${removed.join(", ")}` : ""].filter(Boolean).join("; ")}`,
    );
  } else if (plan.writes.has(indexFile)) lines.push(`  ${indexFile} written: the handler map of every operation`);
  for (const operationId of plan.undeclared501) lines.push(`  note: ${operationId} does not document a 501 response; its stub answers one until implemented`);
  const implementedChanged = changed.filter((file) => file.outcome === "implemented").length;
  lines.push(
    `${count("implemented")} implemented (not touched), ${count("stub") + count("new")} answering 501 not_implemented (${count("new")} new), ${count("deleted") - undeleted.size} deleted` +
      (plan.versions.previous === undefined ? "." : `; ${changed.length} operation(s) changed since the last run, ${implementedChanged} implemented one(s) to follow.`),
  );
  return lines.join("\n");
}
