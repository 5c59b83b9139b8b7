// Packing the package as a consumer gets it: `npm pack` (prepack builds dist/) into a fresh
// temporary directory, and an empty consumer project that installs the tarball (and any
// other packages named) from it, with nothing of this repository's node_modules.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

export const run = promisify(execFile);
export const npm = process.platform === "win32" ? "npm.cmd" : "npm";
export const npx = process.platform === "win32" ? "npx.cmd" : "npx";

export interface Packed {
  /** The temporary directory holding the tarball and the consumer project. */
  dir: string;
  /** The tarball, as `npm pack --json` reports it. */
  tarball: { filename: string; files: { path: string }[] };
}

/** Packs the package into a new temporary directory whose name starts with `prefix`. */
export async function pack(prefix: string): Promise<Packed> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const { stdout } = await run(npm, ["pack", "--json", "--pack-destination", dir], { maxBuffer: 16 * 1024 * 1024 });
  // prepack's build output comes first; the JSON report is the last thing npm prints.
  return { dir, tarball: JSON.parse(stdout.slice(stdout.lastIndexOf("\n[") + 1))[0] };
}

/** A consumer project `name` beside the tarball with `files` written, the tarball and `also` installed. */
export async function consumerProject(packed: Packed, name: string, files: Record<string, string>, also: string[] = []): Promise<string> {
  const project = join(packed.dir, name);
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(project, file), text);
  await run(npm, ["install", join(packed.dir, packed.tarball.filename), ...also, "--no-audit", "--no-fund", "--prefer-offline"], { cwd: project });
  return project;
}
