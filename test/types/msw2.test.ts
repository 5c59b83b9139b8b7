// The MSW handlers (msw/index.ts) and their typed use (frontend.test-d.ts)
// compile against MSW 2's declarations as they do against MSW 3's (the whole project's tsc):
// tsconfig.msw2.json maps `msw` to the `msw2` alias (npm:msw@2), so the mock package's peer
// range `^2.15.0 || ^3.0.5` is what is checked. The same handlers run under MSW 2 in the
// `msw2` project of test/vitest.config.ts.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

test("tsc -p test/types/tsconfig.msw2.json exits 0 (the handlers over MSW 2's types)", async () => {
  const result = await promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", "test/types/tsconfig.msw2.json", "--listFiles"], {
    maxBuffer: 256 * 1024 * 1024,
  }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, output: error.stdout ?? String(error) }),
  );
  // The mapping took: MSW 2's declarations are compiled, and none of MSW 3's.
  const files = result.output.split("\n");
  expect(files.some((file) => file.endsWith("/node_modules/msw2/lib/core/index.d.ts"))).toBe(true);
  expect(files.filter((file) => file.includes("/node_modules/msw/"))).toEqual([]);
  expect(result.output.split("\n").filter((line) => /error TS/.test(line))).toEqual([]);
  expect(result.code).toBe(0);
}, 120_000);
