// openapi-react-query takes the client as it is (react-query.check.ts), checked by tsc in a
// project of its own with the DOM lib, as a React app compiles it. Each `@ts-expect-error`
// there must still be an error, so the check fails if the types loosen.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

test("tsc -p test/types/tsconfig.react-query.json exits 0 (openapi-react-query over the client, no cast)", async () => {
  const result = await promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", "test/types/tsconfig.react-query.json"], { maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, output: error.stdout ?? String(error) }),
  );
  expect(result.output).toBe("");
  expect(result.code).toBe(0);
}, 120_000);
