// Reads the two documents the diff compares: a bundled JSON file as it is, a YAML source
// bundled by Redocly (the project's own `npm run bundle` tool), or a git ref whose openapi/
// folder is extracted to a temporary directory and bundled there.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Node } from "./document.js";

/** A document that cannot be read; the CLI prints its message on one line and exits 2. */
export class UnreadableDocument extends Error {}

const root = fileURLToPath(new URL("../../", import.meta.url));
const redocly = join(root, "node_modules/.bin/redocly");
const quiet = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };

/** Bundles the multi-file source whose root is `openapi/openapi.yaml` under `dir`. */
export function bundleSource(dir: string): Node {
  const out = mkdtempSync(join(tmpdir(), "contract-diff-"));
  try {
    const config = join(dir, "openapi/redocly.yaml");
    const target = join(out, "openapi.json");
    const args = existsSync(config)
      ? ["bundle", "main", "--config", config, "-o", target]
      : ["bundle", join(dir, "openapi/openapi.yaml"), "-o", target];
    execFileSync(redocly, args, { cwd: dir, env: quiet, stdio: "pipe" });
    return JSON.parse(readFileSync(target, "utf8"));
  } catch (error) {
    throw new UnreadableDocument(`cannot bundle ${join(dir, "openapi/openapi.yaml")}: ${firstLine(error)}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** A document file: JSON as it is; anything else bundled by Redocly. */
export function readDocumentFile(file: string): Node {
  let doc: Node;
  try {
    doc = file.endsWith(".json")
      ? JSON.parse(readFileSync(file, "utf8"))
      : JSON.parse(execFileSync(redocly, ["bundle", file, "--ext", "json"], { env: quiet, stdio: "pipe" }).toString());
  } catch (error) {
    throw new UnreadableDocument(`cannot read ${file}: ${firstLine(error)}`);
  }
  if (!doc || typeof doc !== "object" || typeof doc.openapi !== "string" || typeof doc.paths !== "object") {
    throw new UnreadableDocument(`${file} is not an OpenAPI document`);
  }
  return doc;
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

/** The document of `openapi/` as committed at `ref`, bundled. */
export function bundleAtRef(repo: string, ref: string): Node {
  const dir = mkdtempSync(join(tmpdir(), "contract-diff-ref-"));
  try {
    const tar = execFileSync("git", ["archive", "--format=tar", ref, "openapi"], { cwd: repo, stdio: "pipe", maxBuffer: 256 * 1024 * 1024 });
    execFileSync("tar", ["-x", "-C", dir], { input: tar, stdio: ["pipe", "pipe", "pipe"] });
    return bundleSource(dir);
  } catch (error) {
    if (error instanceof UnreadableDocument) throw error;
    throw new UnreadableDocument(`cannot read openapi/ at ${ref}: ${firstLine(error)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A base given as a file path or a git ref of the repository at `repo`. */
export function readBase(repo: string, base: string): Node {
  if (existsSync(base)) return readDocumentFile(base);
  if (isGitRef(repo, base)) return bundleAtRef(repo, base);
  throw new UnreadableDocument(`--base ${base} is neither a readable file nor a git ref`);
}

function firstLine(error: unknown): string {
  const e = error as { stderr?: Buffer; message?: string };
  const text = e.stderr?.toString().trim() || e.message || String(error);
  return text.split("\n").find((line) => line.trim() !== "")?.trim() ?? "unknown error";
}
