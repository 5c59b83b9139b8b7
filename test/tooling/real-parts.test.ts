// The one decision every suite with a real part takes (test/support/real-parts.ts): run when
// the part is here, skip with the reason on a contributor's machine, fail under CI; a part
// turned off on purpose skips everywhere. Fed by the real probes: PostgreSQL's (a missing
// initdb through PG_BIN_DIR) and Chromium's (a missing executable).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startCluster } from "../postgres/cluster.js";
import { chromiumMissing, decide, realPart, underCi, type Missing } from "../support/real-parts.js";

afterEach(() => vi.unstubAllEnvs());

/** What the PostgreSQL probe answers when initdb is not where PG_BIN_DIR says. */
async function noInitdb(): Promise<Missing> {
  vi.stubEnv("PG_BIN_DIR", "/nonexistent/postgresql/bin");
  vi.stubEnv("TEST_POSTGRES", "on");
  const started = await startCluster();
  if (!("unavailable" in started)) throw new Error("a cluster started without initdb");
  return { part: "PostgreSQL", reason: started.unavailable, deliberate: started.deliberate };
}

describe("a suite's real part", () => {
  it("missing initdb under CI=true: fails, naming the part and the reason", async () => {
    const missing = await noInitdb();
    expect(decide(missing, { CI: "true" })).toEqual({
      kind: "fail",
      reason: expect.stringMatching(/^PostgreSQL is required under CI=true and cannot run here: PostgreSQL is not installed/),
    });
    expect(() => realPart(missing, { CI: "true" })).toThrow(/PostgreSQL is required under CI=true/);
  });

  it("missing initdb on a contributor's machine: skips, with the reason written to the skip report", async () => {
    const missing = await noInitdb();
    const dir = mkdtempSync(join(tmpdir(), "real-parts-"));
    try {
      const report = join(dir, "skipped");
      vi.spyOn(console, "warn").mockImplementation(() => undefined);
      expect(realPart(missing, { SKIP_REPORT_FILE: report })).toBe("PostgreSQL tests skipped: PostgreSQL is not installed (apt-get install -y postgresql)");
      expect(readFileSync(report, "utf8")).toBe("PostgreSQL tests skipped: PostgreSQL is not installed (apt-get install -y postgresql)\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("TEST_POSTGRES=off skips under CI too: the run asked for it", async () => {
    vi.stubEnv("TEST_POSTGRES", "off");
    const started = await startCluster();
    expect(started).toEqual({ unavailable: "TEST_POSTGRES=off turned PostgreSQL off for this run", deliberate: true });
    const missing = { part: "PostgreSQL", reason: (started as { unavailable: string }).unavailable, deliberate: true };
    expect(decide(missing, { CI: "true" })).toMatchObject({ kind: "skip" });
  });

  it("missing Chromium: fails under CI, skips elsewhere; present: runs", () => {
    const missing = chromiumMissing("/nonexistent/chromium");
    expect(missing).toEqual({ part: "Chromium", reason: "/nonexistent/chromium is missing: apt-get install -y chromium (.ci/run does this)" });
    expect(decide(missing, { CI: "1" }).kind).toBe("fail");
    expect(decide(missing, {}).kind).toBe("skip");
    expect(decide(chromiumMissing(process.execPath), { CI: "true" })).toEqual({ kind: "run" });
  });

  it.each([
    ["true", true],
    ["1", true],
    ["yes", true],
    ["false", false],
    ["0", false],
    ["", false],
    [undefined, false],
  ])("CI=%j is a CI run: %s", (value, expected) => {
    expect(underCi(value === undefined ? {} : { CI: value })).toBe(expected);
  });
});
