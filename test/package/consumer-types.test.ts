// The frontend consumer's code type-checks against the packed packages as a user's project
// compiles it: under NodeNext and under Bundler resolution (test/package/consumer/'s two
// tsconfigs), with its TanStack Query hooks built over the client without a cast. Types do
// not depend on the Node line that runs tsc, so CI runs this file once, on the floor of
// `engines`; consumer.test.ts runs the same project's code on every line.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { frontendProject, run } from "../support/pack.js";

let project: string;

beforeAll(async () => {
  project = await frontendProject();
}, 1_200_000);

describe("a frontend project with the three packages installed, type-checked", () => {
  // The hooks module is type-checked with the rest of src/ under both resolutions (below),
  // return types spelt out and @ts-expect-error on what the document forbids; this keeps it
  // honest that the client goes in as createApiClient returns it.
  it("builds its TanStack Query hooks over the client without a cast", () => {
    const code = readFileSync(join(project, "src/queries.ts"), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    expect(code).toMatch(/createQueryClient\(createApiClient\(/);
    expect(code.match(/\bas\s+(?!const\b)[\w{<(]+/g) ?? []).toEqual([]);
  });

  it.concurrent.each(["nodenext", "bundler"])(
    "type-checks under moduleResolution %s",
    async (resolution) => {
      const outcome = await run(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", `tsconfig.${resolution}.json`], { cwd: project }).catch(
        (error: { stdout: string }) => ({ stdout: error.stdout || "tsc failed" }),
      );
      expect(outcome.stdout).toBe("");
    },
    300_000,
  );
});
