// docs/testing.md lists the files of the inner loop's directories that run in `npm test`
// only because they start another process, between `<!-- test-sets:start -->` and
// `<!-- test-sets:end -->`: written from the rule of test/vitest.in-process.ts by
// `npx tsx test/test-sets.ts`, never by hand; test/tooling/test-sets.test.ts fails when the
// list there differs from what the rule decides.
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { childProcessTests, startsProcess } from "./vitest.in-process.js";

const docs = fileURLToPath(new URL("../docs/testing.md", import.meta.url));
const region = /(<!-- test-sets:start[^>]*-->)\n([\s\S]*?)\n?(<!-- test-sets:end -->)/;

/** The list as the rule decides it: each file, and the import that starts a process. */
export function renderedTestSets(): string {
  return [...childProcessTests]
    .sort()
    .map((file) => `- \`${file}\`: imports ${startsProcess(file)!.replace(/ via /g, " through ")}`)
    .join("\n");
}

/** The list docs/testing.md holds. */
export function documentedTestSets(): string {
  const found = region.exec(readFileSync(docs, "utf8"));
  if (!found) throw new Error("docs/testing.md has no <!-- test-sets:start --> … <!-- test-sets:end --> list");
  return found[2]!;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = readFileSync(docs, "utf8");
  documentedTestSets();
  writeFileSync(
    docs,
    text.replace(region, (_, start: string, __: string, end: string) => `${start}\n${renderedTestSets()}\n${end}`),
  );
  console.log("test-sets: docs/testing.md lists", childProcessTests.length, "files");
}
