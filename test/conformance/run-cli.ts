// Runs `authsvc-api conformance` in-process (cli/conformance.ts) and collects what it prints.
import { vi } from "vitest";
import { run } from "../../cli/conformance.js";

export async function conformanceCommand(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((line: unknown) => void out.push(String(line)));
  const error = vi.spyOn(console, "error").mockImplementation((line: unknown) => void err.push(String(line)));
  try {
    const code = await run(argv);
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}
