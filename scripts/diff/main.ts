// npm run diff -- --base <git ref | file> [--head <file>] [--format text|json|markdown]
// The head defaults to the bundle of openapi/ in the current directory (npm runs scripts at
// the package root). Exit 1: a breaking change and the major version did not change;
// 0: otherwise; 2: bad arguments or an unreadable document (one line on stderr says why).
import { parseArgs } from "node:util";
import { formats, render, type Format } from "./format.js";
import { diffDocuments } from "./index.js";
import { bundleSource, readBase, readDocumentFile, UnreadableDocument } from "./load.js";

const usage = "usage: npm run diff -- --base <git ref | file> [--head <file>] [--format text|json|markdown]";

function main(argv: string[]): number {
  let values: { base?: string; head?: string; format?: string };
  try {
    ({ values } = parseArgs({ args: argv, options: { base: { type: "string" }, head: { type: "string" }, format: { type: "string" } }, strict: true, allowPositionals: false }));
  } catch (error) {
    return fail(`${(error as Error).message}; ${usage}`);
  }
  if (!values.base) return fail(`--base is required; ${usage}`);
  const format = (values.format ?? "text") as Format;
  if (!formats.includes(format)) return fail(`--format must be one of ${formats.join(", ")}; ${usage}`);
  try {
    const base = readBase(process.cwd(), values.base);
    const head = values.head ? readDocumentFile(values.head) : bundleSource(process.cwd());
    const result = diffDocuments(base, head);
    process.stdout.write(render(result, format));
    return result.failed ? 1 : 0;
  } catch (error) {
    if (error instanceof UnreadableDocument) return fail(error.message);
    throw error;
  }
}

function fail(reason: string): number {
  process.stderr.write(`diff: ${reason}\n`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
