// The frontend consumer's code type-checks against the packed packages as a user's project
// compiles it: under NodeNext and under Bundler resolution (test/package/consumer/'s two
// tsconfigs), with its TanStack Query hooks built over the client without a cast, by
// TypeScript 5.9 and by TypeScript 7 (what `npm create vite` installs now; the `typescript7`
// alias). And a misspelt path, path parameter, query parameter or body field
// (consumer/mistakes/) is an error naming the key under both: TypeScript 7 reports only the
// last overload's error when none matches, so the client's real signature must be the last.
// Types do not depend on the Node line that runs tsc, so CI runs this file once, on the floor
// of `engines`; consumer.test.ts runs the same project's code on every line.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { frontendProject, run } from "../support/pack.js";

let project: string;

beforeAll(async () => {
  project = await frontendProject();
}, 1_200_000);

/** The two compilers: the package directory of each in the consumer project. */
const compilers = { "TypeScript 5.9": "typescript", "TypeScript 7": "typescript7" } as const;
type Compiler = keyof typeof compilers;
const compilerNames = Object.keys(compilers) as Compiler[];

/** tsc's output for a tsconfig of the consumer project ("" when it compiles). */
async function tsc(compiler: Compiler, config: string): Promise<string> {
  const bin = join(project, "node_modules", compilers[compiler], "bin/tsc");
  const outcome = await run(process.execPath, [bin, "-p", config, "--pretty", "false"], { cwd: project }).catch((error: { stdout: string; stderr: string }) => ({
    stdout: error.stdout || error.stderr || "tsc failed",
  }));
  return outcome.stdout;
}

describe("a frontend project with the three packages installed, type-checked", () => {
  // The hooks module is type-checked with the rest of src/ under both resolutions (below),
  // return types spelt out and @ts-expect-error on what the document forbids; this keeps it
  // honest that the client goes in as createApiClient returns it.
  it("builds its TanStack Query hooks over the client without a cast", () => {
    const code = readFileSync(join(project, "src/queries.ts"), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    expect(code).toMatch(/createQueryClient\(createApiClient\(/);
    expect(code.match(/\bas\s+(?!const\b)[\w{<(]+/g) ?? []).toEqual([]);
  });

  it("installs TypeScript 5.9 and 7", () => {
    const version = (dir: string) => (JSON.parse(readFileSync(join(project, "node_modules", dir, "package.json"), "utf8")) as { version: string }).version;
    expect(version("typescript")).toMatch(/^5\.9\./);
    expect(version("typescript7")).toMatch(/^7\./);
  });

  it.concurrent.each(compilerNames.flatMap((compiler) => ["nodenext", "bundler"].map((resolution) => [compiler, resolution] as const)))(
    "%s type-checks it under moduleResolution %s",
    async (compiler, resolution) => {
      expect(await tsc(compiler, `tsconfig.${resolution}.json`)).toBe("");
    },
    300_000,
  );

  it.concurrent.each(compilerNames)(
    "%s names the misspelt key of each mistake",
    async (compiler) => {
      const output = await tsc(compiler, "tsconfig.mistakes.json");
      // One error per mistake (a line `file(line,col): error TS…`), each naming what is wrong.
      const errors = output.split(/\n(?=\S)/).filter((entry) => /error TS\d+/.test(entry));
      expect(errors, output).toHaveLength(4);
      for (const [line, named] of [
        [8, `Argument of type '"/widgetz/{id}"' is not assignable to parameter of type`],
        [9, "'idd' does not exist in type '{ id: string; }'"],
        [10, "'limt' does not exist in type"],
        [11, "'is_activ' does not exist in type"],
      ] as const) {
        const error = errors.find((entry) => entry.startsWith(`mistakes/calls.ts(${line},`));
        expect(error, `line ${line} under ${compiler}:\n${output}`).toContain(named);
      }
      console.log(`${compiler}:\n${output}`);
    },
    300_000,
  );
});
