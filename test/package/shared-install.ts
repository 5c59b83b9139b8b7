// Vitest global setup: one scratch directory per run for the packed packages and the
// consumer projects installed from them (test/support/pack.ts), so every package test of a
// run shares one `npm pack` and one install of each project, and the run removes them all
// at the end. Nothing is packed here: a run without package tests pays only for mkdtemp.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    packScratch: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "authsvc-packed-"));
  project.provide("packScratch", dir);
  return () => {
    // The installed projects hold tens of thousands of files: deleting them in this process
    // blocked vitest's exit for up to 40 s on a busy machine. A detached `rm` finishes the
    // job after the run has ended.
    if (process.platform === "win32") return rmSync(dir, { recursive: true, force: true });
    spawn("rm", ["-rf", dir], { detached: true, stdio: "ignore" }).unref();
  };
}
