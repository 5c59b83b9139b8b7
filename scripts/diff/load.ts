// The two documents the diff compares, as bundled JSON files: a file as it is (YAML bundled
// first), the working tree's openapi/ bundled as `npm run bundle` does, or the tree
// committed at a git ref bundled the same way. A base named like a release (`v1.0.0`) that no tag holds is
// the packed copy of that release, release/openapi.json, when its version matches.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** A document that cannot be read; the CLI prints its message on one line and exits 2. */
export class UnreadableDocument extends Error {}

/** A bundled document on disk; `remove` deletes it when it was made for the diff. */
export interface Bundle {
  file: string;
  /** Where it came from, for reports: a path, `v1.0.0 (tag)`, … */
  label: string;
  remove: () => void;
}

/** Where the packed document of the last release lives in the repository. */
export const packedRelease = "release/openapi.json";

const root = fileURLToPath(new URL("../../", import.meta.url));
const redocly = join(root, "node_modules/.bin/redocly");
const tsx = join(root, "node_modules/.bin/tsx");
/** Post-processing of `npm run bundle` (per-operation error examples), when the tree has it. */
const bundleStep = "scripts/own-error-examples.ts";
const quiet = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };

const temporary = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** Bundles the multi-file source whose root is `openapi/openapi.yaml` under `dir`, as `npm run bundle` does. */
export function bundleSource(dir: string, label = "openapi/ (working tree)"): Bundle {
  const out = temporary("contract-diff-");
  const file = join(out, "openapi.json");
  try {
    const config = join(dir, "openapi/redocly.yaml");
    const args = existsSync(config) ? ["bundle", "main", "--config", config, "-o", file] : ["bundle", join(dir, "openapi/openapi.yaml"), "-o", file];
    execFileSync(redocly, args, { cwd: dir, env: quiet, stdio: "pipe" });
    if (existsSync(join(dir, bundleStep))) execFileSync(tsx, [join(dir, bundleStep), file], { cwd: dir, stdio: "pipe" });
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw new UnreadableDocument(`cannot bundle ${join(dir, "openapi/openapi.yaml")}: ${firstLine(error)}`);
  }
  return { file, label, remove: () => rmSync(out, { recursive: true, force: true }) };
}

/** The version of a bundled document (`info.version`); throws when it is no OpenAPI document. */
export function versionOf(file: string): string {
  let doc: { openapi?: unknown; paths?: unknown; info?: { version?: unknown } };
  try {
    doc = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UnreadableDocument(`cannot read ${file}: ${firstLine(error)}`);
  }
  if (!doc || typeof doc !== "object" || typeof doc.openapi !== "string" || typeof doc.paths !== "object") {
    throw new UnreadableDocument(`${file} is not an OpenAPI document`);
  }
  return String(doc.info?.version ?? "");
}

/** A document file: JSON as it is; anything else (YAML, multi-file) bundled by Redocly. */
export function readDocumentFile(file: string): Bundle {
  if (!existsSync(file)) throw new UnreadableDocument(`cannot read ${file}: no such file`);
  if (file.endsWith(".json")) {
    versionOf(file);
    return { file, label: file, remove: () => {} };
  }
  const out = temporary("contract-diff-file-");
  const bundled = join(out, "openapi.json");
  try {
    execFileSync(redocly, ["bundle", file, "-o", bundled], { env: quiet, stdio: "pipe" });
    versionOf(bundled);
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error instanceof UnreadableDocument ? error : new UnreadableDocument(`cannot read ${file}: ${firstLine(error)}`);
  }
  return { file: bundled, label: file, remove: () => rmSync(out, { recursive: true, force: true }) };
}

/** Whether `ref` names a commit of the repository at `repo`. */
export function isGitRef(repo: string, ref: string): boolean {
  try {
    execFileSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd: repo, stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The document as committed at `ref`, bundled as the tree at `ref` bundled it. The whole tree
 * is taken (`git archive`, 4 MB today), not only `openapi/`: the bundle step of a tree
 * imports whatever that tree's scripts import (own-error-examples.ts reads
 * server/document/walk.ts), and a list of paths would break on the next such import. A
 * commit has no installed packages, so it runs with this checkout's node_modules.
 */
export function bundleAtRef(repo: string, ref: string, label = ref): Bundle {
  const dir = temporary("contract-diff-ref-");
  try {
    const tar = execFileSync("git", ["archive", "--format=tar", ref], { cwd: repo, stdio: "pipe", maxBuffer: 256 * 1024 * 1024 });
    execFileSync("tar", ["-x", "-C", dir], { input: tar, stdio: ["pipe", "pipe", "pipe"], maxBuffer: 16 * 1024 * 1024 });
    if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    return bundleSource(dir, label);
  } catch (error) {
    if (error instanceof UnreadableDocument) throw new UnreadableDocument(error.message.replace(`${dir}/`, `${ref}:`));
    throw new UnreadableDocument(`cannot read the tree at ${ref}: ${firstLine(error)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The packed release of `version` (`1.0.0`), when release/openapi.json is that release. */
export function packedReleaseOf(repo: string, version: string): Bundle | undefined {
  const file = join(repo, packedRelease);
  if (!existsSync(file) || versionOf(file) !== version) return undefined;
  return { file, label: `${packedRelease} (packed release ${version})`, remove: () => {} };
}

/** A base given as a file path, a git ref of the repository at `repo`, or `vX.Y.Z` of the packed release. */
export function readBase(repo: string, base: string): Bundle {
  if (existsSync(base)) return readDocumentFile(base);
  if (isGitRef(repo, base)) return bundleAtRef(repo, base);
  const release = /^v(\d+\.\d+\.\d+)$/.exec(base);
  const packed = release ? packedReleaseOf(repo, release[1]!) : undefined;
  if (packed) return packed;
  const hint = release ? ` (and ${packedRelease} is not release ${release[1]})` : "";
  throw new UnreadableDocument(`--base ${base} is neither a readable file nor a git ref${hint}`);
}

/**
 * The line of a failed command's output that says what failed: the first naming an error
 * (a stack trace of Node starts with the file and line of its loader), else the first
 * meaningful one (Redocly's Node 20 banner skipped).
 */
export function firstLine(error: unknown): string {
  const e = error as { stderr?: Buffer; message?: string };
  const text = e.stderr?.toString().trim() || e.message || String(error);
  const banner = /[║╔╚═]/;
  const lines = text.split("\n").filter((line) => line.trim() !== "" && !banner.test(line));
  return (lines.find((line) => /\b\w*Error\b|\berror\b/i.test(line)) ?? lines[0])?.trim() ?? "unknown error";
}
