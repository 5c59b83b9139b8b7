// Runs `authsvc-api conformance` in-process (cli/conformance.ts) and collects what it prints,
// each line with when it was printed (ms since the start), so a test can see lines come as
// their checks finish.
import { vi } from "vitest";
import { run } from "../../cli/conformance.js";

export interface Printed {
  code: number;
  out: string;
  err: string;
  /** Each console.log call: ms since the command started, and what it printed. */
  printed: { at: number; text: string }[];
}

export async function conformanceCommand(argv: string[]): Promise<Printed> {
  const printed: Printed["printed"] = [];
  const err: string[] = [];
  const started = performance.now();
  const log = vi.spyOn(console, "log").mockImplementation((line: unknown) => void printed.push({ at: performance.now() - started, text: String(line) }));
  const error = vi.spyOn(console, "error").mockImplementation((line: unknown) => void err.push(String(line)));
  try {
    const code = await run(argv);
    return { code, out: printed.map((line) => line.text).join("\n"), err: err.join("\n"), printed };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}
