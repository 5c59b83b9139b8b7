// Throwaway git repositories holding a copy of this project's openapi/ folder, for the
// diff CLI, the release gate and the changelog check to run against real commits and tags.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "../tooling/run.js";

export interface Repo {
  dir: string;
  git: (...args: string[]) => string;
  remove: () => void;
}

/** A new repository with openapi/ committed once (and `files` written beside it). */
export function createRepo(files: Record<string, string> = {}): Repo {
  const dir = mkdtempSync(join(tmpdir(), "contract-repo-"));
  cpSync(join(root, "openapi"), join(dir, "openapi"), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } }).toString();
  git("init", "-q", "-b", "main");
  git("config", "user.email", "test@example.invalid");
  git("config", "user.name", "test");
  git("config", "commit.gpgsign", "false");
  git("add", "-A");
  git("commit", "-q", "-m", "contract");
  return {
    dir,
    git,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Replaces `from` by `to` in a file under `dir` (fails when `from` is absent). */
export function edit(dir: string, file: string, from: string | RegExp, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, "utf8");
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${file} holds no ${from}`);
  writeFileSync(path, next);
}

/**
 * Removes the first path of the document (breaking: `operation-removed`), whatever the
 * contract holds today, so these tests do not depend on the state of one field.
 */
export const breakingEdit = (repo: Pick<Repo, "dir">) => edit(repo.dir, "openapi/openapi.yaml", /^paths:\n  \/[^\n]*:\n    \$ref: [^\n]*\n/m, "paths:\n");

/**
 * Adds an operation (DELETE beside the GET of the first path with one parameter; an
 * addition: at least a minor release), whatever the contract holds today.
 */
export function addOperation(repo: Pick<Repo, "dir">): void {
  const root = readFileSync(join(repo.dir, "openapi/openapi.yaml"), "utf8");
  const ref = /^  \/[^\n]*\{[^\n]*:\n    \$ref: '?\.\/([^'\n]+)'?$/m.exec(root);
  if (!ref) throw new Error("openapi/openapi.yaml holds no path with a parameter");
  const file = `openapi/${ref[1]}`;
  const text = readFileSync(join(repo.dir, file), "utf8");
  const get = /^get:\n((?:  .*\n|\n)*)/m.exec(text);
  if (!get) throw new Error(`${file} holds no GET`);
  const operation = get[1]!.replace(/^  operationId: (\w+)$/m, "  operationId: $1Delete");
  writeFileSync(join(repo.dir, file), `${text.trimEnd()}\ndelete:\n${operation}`);
}

/** Raises one part of `info.version` (whatever it is today); returns both versions. */
function raise(repo: Pick<Repo, "dir">, part: "major" | "minor"): { from: string; to: string } {
  const text = readFileSync(join(repo.dir, "openapi/openapi.yaml"), "utf8");
  const from = /^  version: (\d+)\.(\d+)\.\d+$/m.exec(text);
  if (!from) throw new Error("openapi/openapi.yaml holds no info.version X.Y.Z");
  const to = part === "major" ? `${Number(from[1]) + 1}.0.0` : `${from[1]}.${Number(from[2]) + 1}.0`;
  edit(repo.dir, "openapi/openapi.yaml", /^  version: .*$/m, `  version: ${to}`);
  return { from: from[0].trim().slice("version: ".length), to };
}

export const raiseMajor = (repo: Pick<Repo, "dir">) => raise(repo, "major");
export const raiseMinor = (repo: Pick<Repo, "dir">) => raise(repo, "minor");
