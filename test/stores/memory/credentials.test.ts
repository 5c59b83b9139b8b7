// The in-memory store keeps no clear copy of a key, secret or e-mail auth in its heap. How
// credentials authenticate, on every store: test/stores/credentials.test.ts.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { demo } from "../../support/demo.js";

describe("no clear copy", () => {
  it("a live store's heap holds no clear key, secret or e-mail auth", () => {
    const dir = mkdtempSync(join(tmpdir(), "heap-"));
    const snapshot = join(dir, "store.heapsnapshot");
    const probe = fileURLToPath(new URL("./heap-probe.ts", import.meta.url));
    const output = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", probe, snapshot], { encoding: "utf8" });
    const { hex, held } = JSON.parse(output.trim().split("\n").pop()!) as { hex: string[]; held: number };
    expect(held).toBe(2);
    const heap = readFileSync(snapshot, "utf8");
    expect(heap).toContain(demo.a.applicationId); // the snapshot does hold the store's strings
    expect(hex.length).toBeGreaterThan(0);
    for (const value of hex) expect(heap).not.toContain(value);
    rmSync(dir, { recursive: true });
  }, 60_000);
});
