// `authsvc-api stubs <dir>`: writes a handler module per operation and the handler map into
// a service's own source tree (server/stubs/plan.ts decides what), and after a contract
// update reports which operations are new, removed, or changed in what their handler reads
// or returns. Implemented handlers are never written to.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { operations } from "../generated/operations.js";
import { loadDocument, type ApiDocument } from "../server/document/load.js";
import { indexFile, planStubs, snapshotFile, type FileOutcome, type StubPlan } from "../server/stubs/plan.js";
import { command, UsageError } from "./args.js";

const usage = `usage: authsvc-api stubs <dir>

Writes one typed handler module per operation of the installed contract (<operationId>.ts,
each answering the documented 501 not_implemented problem until you implement it) and
index.ts, the handler map (\`handlers\`) to give createContractApp, into <dir> (created if
missing), with ${snapshotFile}, the document they were generated from (commit it).

Run it again after updating the package: it adds modules for new operations, deletes
untouched stubs of removed ones, never writes to a module that differs from its stub (an
implemented handler), and reports the operations added, removed, or changed in their
parameters, request body or success responses since ${snapshotFile}.
Exit code: 0 written, 1 the directory cannot be read or written, 2 bad arguments.`;

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
      console.log(report(dir, write(dir)));
      return 0;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!code || !/^E[A-Z]+$/.test(code)) throw error;
      console.error(`authsvc-api stubs: ${(error as Error).message}`);
      return 1;
    }
  });
}

/** Plans against what `dir` holds, then writes and deletes. */
function write(dir: string): StubPlan {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: "ENOTDIR" });
  mkdirSync(dir, { recursive: true });
  const existing = new Map<string, string>();
  for (const name of readdirSync(dir)) if (name.endsWith(".ts")) existing.set(name, readFileSync(join(dir, name), "utf8"));
  const snapshot = join(dir, snapshotFile);
  const previous = existsSync(snapshot) ? (JSON.parse(readFileSync(snapshot, "utf8")) as ApiDocument) : undefined;
  const plan = planStubs({ table: operations, document: loadDocument(), ...(previous ? { previous } : {}), existing });
  for (const [name, content] of plan.writes) writeFileSync(join(dir, name), content);
  for (const name of plan.deletes) rmSync(join(dir, name));
  return plan;
}

/** One module's line: what the contract did to its operation (after a first run), what the command did, what is left to do. */
function line(file: FileOutcome, rerun: boolean): string[] {
  const change = file.change;
  const columns = [...(rerun ? [(change?.kind ?? "").padEnd(8)] : []), file.outcome.padEnd(12), file.file.padEnd(28), file.operation];
  const todo =
    change?.kind === "removed" && file.outcome === "implemented"
      ? ["      the contract removed it: delete this module"]
      : change?.kind === "changed" && file.outcome === "implemented"
        ? ["      implemented, not touched; follow:", ...change.details.map((detail) => `        ${detail}`)]
        : [];
  return [`  ${columns.join(" ")}`.trimEnd(), ...todo];
}

/** The lines a team reads: one per module (what the contract did to it, what the command did), then a summary. */
function report(dir: string, plan: StubPlan): string {
  const versions = plan.versions.previous === undefined ? `contract ${plan.versions.current}` : `contract ${plan.versions.previous} → ${plan.versions.current}`;
  const count = (outcome: string) => plan.files.filter((file) => file.outcome === outcome).length;
  const changed = plan.files.filter((file) => file.change);
  const lines = [`authsvc-api stubs: ${dir}, ${versions}, ${Object.keys(operations).length} operations`];
  // Unchanged modules are summed up, not listed, after the first run.
  const rerun = plan.versions.previous !== undefined;
  for (const file of plan.files) if (!rerun || file.change || file.outcome === "new") lines.push(...line(file, rerun));
  if (plan.editedIndex && (plan.editedIndex.added.length > 0 || plan.editedIndex.removed.length > 0)) {
    const { added, removed } = plan.editedIndex;
    lines.push(
      `  ${indexFile} is edited, left as is: ${[added.length > 0 ? `add ${added.join(", ")}` : "", removed.length > 0 ? `remove ${removed.join(", ")}` : ""].filter(Boolean).join("; ")}`,
    );
  } else if (plan.writes.has(indexFile)) lines.push(`  ${indexFile} written: the handler map of every operation`);
  for (const operationId of plan.undeclared501) lines.push(`  note: ${operationId} does not document a 501 response; its stub answers one until implemented`);
  const implementedChanged = changed.filter((file) => file.outcome === "implemented").length;
  lines.push(
    `${count("implemented")} implemented (not touched), ${count("stub") + count("new")} answering 501 not_implemented (${count("new")} new), ${count("deleted")} deleted` +
      (plan.versions.previous === undefined ? "." : `; ${changed.length} operation(s) changed since the last run, ${implementedChanged} implemented one(s) to follow.`),
  );
  return lines.join("\n");
}
