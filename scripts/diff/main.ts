// npm run diff -- --base <git ref | vX.Y.Z | file> [--head <file>] [--format text|json|markdown] [--patch]
// The head defaults to the bundle of openapi/ in the current directory (npm runs scripts at
// the package root). Exit 1: the head's version is below what the changes need (a breaking
// change without a new major, an addition without a new minor); 0: otherwise; 2: bad
// arguments or an unreadable document (one line on stderr says why).
import { parseArgs } from "node:util";
import { formats, render, type Format } from "./format.js";
import { diffFiles } from "./index.js";
import { bundleSource, readBase, readDocumentFile, UnreadableDocument, type Bundle } from "./load.js";

const usage = "usage: npm run diff -- --base <git ref | vX.Y.Z | file> [--head <file>] [--format text|json|markdown] [--patch]";

function main(argv: string[]): number {
  let values: { base?: string; head?: string; format?: string; patch?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { base: { type: "string" }, head: { type: "string" }, format: { type: "string" }, patch: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return fail(`${(error as Error).message}; ${usage}`);
  }
  if (!values.base) return fail(`--base is required; ${usage}`);
  const format = (values.format ?? "text") as Format;
  if (!formats.includes(format)) return fail(`--format must be one of ${formats.join(", ")}; ${usage}`);
  const opened: Bundle[] = [];
  try {
    const base = readBase(process.cwd(), values.base);
    opened.push(base);
    const head = values.head ? readDocumentFile(values.head) : bundleSource(process.cwd());
    opened.push(head);
    const result = diffFiles(base.file, head.file);
    if (format === "text") process.stdout.write(`base: ${base.label}\nhead: ${head.label}\n`);
    process.stdout.write(render(result, format, { patch: values.patch }));
    return result.failed ? 1 : 0;
  } catch (error) {
    if (error instanceof UnreadableDocument) return fail(error.message);
    throw error;
  } finally {
    for (const bundle of opened) bundle.remove();
  }
}

function fail(reason: string): number {
  process.stderr.write(`diff: ${reason}\n`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
