// The package as a consumer project gets it: `npm pack` (prepack builds dist/) into a
// temporary directory, then a fresh project there that installs the tarball and what else
// it lists from the npm cache (no path into this repository's node_modules).
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

export const run = promisify(execFile);
export const npm = process.platform === "win32" ? "npm.cmd" : "npm";

export interface Packed {
  /** The temporary directory holding the tarball (remove it when done). */
  dir: string;
  /** The tarball's path. */
  tarball: string;
  /** The files in the tarball. */
  files: string[];
}

/** Packs the repository into a fresh temporary directory. */
export async function pack(prefix: string): Promise<Packed> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const { stdout } = await run(npm, ["pack", "--json", "--pack-destination", dir], { maxBuffer: 16 * 1024 * 1024 });
  // prepack's build output comes first; the JSON report is the last thing npm prints.
  const report = JSON.parse(stdout.slice(stdout.lastIndexOf("\n[") + 1))[0] as { filename: string; files: { path: string }[] };
  return { dir, tarball: join(dir, report.filename), files: report.files.map((f) => f.path) };
}

/**
 * Makes `project` (under the packed directory) with a package.json, and installs the tarball
 * plus `packages` (exact versions, e.g. `vitest@4.1.12`) as devDependencies, preferring the cache.
 */
export async function installProject(packed: Packed, project: string, packages: string[] = []): Promise<string> {
  const dir = join(packed.dir, project);
  mkdirSync(dir, { recursive: true });
  await run(npm, ["init", "-y"], { cwd: dir });
  await run(npm, ["pkg", "set", "type=module", "private=true"], { cwd: dir });
  const flags = ["--no-audit", "--no-fund", "--prefer-offline", "--save-exact"];
  await run(npm, ["install", packed.tarball, ...flags], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  if (packages.length > 0) await run(npm, ["install", "--save-dev", ...packages, ...flags], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  return dir;
}

/** The exact version of a package this repository installed (to give the consumer the same). */
export function versionOf(name: string, lock: { packages: Record<string, { version?: string }> }): string {
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`${name} is not in package-lock.json`);
  return `${name}@${version}`;
}
