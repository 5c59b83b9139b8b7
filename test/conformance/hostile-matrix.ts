// Measures `authsvc-api conformance` against targets hostile on every operation (not a test:
// `npx tsx test/conformance/hostile-matrix.ts [request-timeout-ms] [case]`), one run per hostility,
// each a child process under /usr/bin/time: the exit code, the FAIL count, when the first
// check's line came, the wall time and the peak resident memory of the largest process (the
// command or its redocly respect child). Prints a Markdown table; the figures are in
// docs/conformance.md.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exampleFixtures } from "../../conformance/calls.js";
import { hostilities, startHostileTarget } from "./hostile-target.js";

const timeoutMs = process.argv[2] ?? "1000";
const dir = mkdtempSync(join(tmpdir(), "conformance-matrix-"));
const fixtures = join(dir, "fixtures.json");
writeFileSync(fixtures, JSON.stringify(exampleFixtures()));
const cli = new URL("../../cli/authsvc-api.ts", import.meta.url).pathname;

function run(url: string): Promise<{ code: number | null; out: string; peakKb: number; wallMs: number; firstLineMs: number }> {
  const args = ["-f", "peak-kb %M", process.execPath, "--import", "tsx", cli, "conformance"];
  args.push("--base-url", url, "--api-key", "ak_any", "--api-secret", "as_any", "--stateless", "--fixtures", fixtures, "--request-timeout", timeoutMs);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn("/usr/bin/time", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let firstLineMs = Number.NaN;
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
      if (Number.isNaN(firstLineMs) && /^(PASS|FAIL|SKIP) {2}/m.test(out)) firstLineMs = performance.now() - started;
    });
    child.stderr.on("data", (chunk: Buffer) => (err += chunk));
    child.on("close", (code) => resolve({ code, out, peakKb: Number(/peak-kb (\d+)/.exec(err)?.[1] ?? 0), wallMs: performance.now() - started, firstLineMs }));
  });
}

console.log(`| case (every operation) | outcome | FAIL lines | first line | wall time | peak memory |`);
console.log(`| --- | --- | --- | --- | --- | --- |`);
for (const hostility of hostilities.filter((name) => !process.argv[3] || name === process.argv[3])) {
  const target = await startHostileTarget(() => hostility);
  try {
    const { code, out, peakKb, wallMs, firstLineMs } = await run(target.url);
    const fails = out.split("\n").filter((line) => line.startsWith("FAIL")).length;
    const verdict = /^result: .*/m.exec(out)?.[0] ?? "no summary";
    const leaked = target.elsewhere.length > 0 ? `; ${target.elsewhere.length} requests reached the other origin` : "";
    console.log(
      `| ${hostility} | exit ${code}, \`${verdict}\`${leaked} | ${fails} | ${(firstLineMs / 1000).toFixed(1)} s | ${(wallMs / 1000).toFixed(1)} s | ${Math.round(peakKb / 1024)} MB |`,
    );
  } finally {
    await target.close();
  }
}
rmSync(dir, { recursive: true, force: true });
