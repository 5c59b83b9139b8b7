// The whole project compiles under the strict tsconfig: generated code, client, server,
// mock, tests, benchmarks, scripts and the code samples of the document. Run as a test so
// that `tsc` passing is part of what CI checks, with the compiler's own output on failure.
// This is also what runs the type tests (`*.test-d.ts`): a failed expectTypeOf, or an
// expected error that does not occur, is a compile error.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

test("tsc --noEmit -p tsconfig.json exits 0", async () => {
  const result = await promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json"], {
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, output: error.stdout ?? String(error) }),
  );
  expect(result.output).toBe("");
  expect(result.code).toBe(0);
}, 120_000);
