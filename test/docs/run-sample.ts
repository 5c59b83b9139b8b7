// Runs a request sample copied from the docs page, in its own language, against a base URL:
// curl with bash, JavaScript fetch with node, Python with python3's standard library, Go with
// the go toolchain (Debian's golang-go; .ci/run installs it), the TypeScript client's with the
// repository's TypeScript (type-checked against the client) then tsx. The text is run as the
// reader copies it (the page's samples for the local mock carry the demo keys), with one edit:
// the test's mock listens at another address than the page's `http://127.0.0.1:4010/v1`.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The sample sent to `to` instead of `from` (a base URL). */
export function readdressed(text: string, from: string, to: string): string {
  return text.replaceAll(from, to).replaceAll(new URL(from).host, new URL(to).host); // Python's http.client names host and path apart
}

const timeout = 60_000;

/** Runs one sample; resolves with what it printed, rejects when it exits non-zero. */
export async function runSample(language: "curl" | "javascript" | "python", text: string): Promise<string> {
  const [file, args] =
    language === "curl" ? ["bash", ["-c", text]] : language === "javascript" ? [process.execPath, ["--input-type=module", "-e", text]] : ["python3", ["-c", text]];
  const { stdout } = await run(file, args as string[], { timeout });
  return stdout;
}

/**
 * Runs Go samples in one build (a `go run` per sample costs a compile each): each sample's
 * `func main()` becomes `func sampleN()` in its own file of one package, and a main calls
 * them in order. Nothing else of the text changes.
 */
export async function runGoSamples(texts: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "docs-go-"));
  try {
    mkdirSync(join(dir, "samples"));
    texts.forEach((text, i) => {
      if (!/^func main\(\) \{$/m.test(text)) throw new Error(`Go sample ${i} has no func main()`);
      writeFileSync(join(dir, "samples", `sample${i}.go`), text.replace(/^func main\(\) \{$/m, `func sample${i}() {`));
    });
    writeFileSync(join(dir, "samples", "main.go"), `package main\n\nfunc main() {\n${texts.map((_, i) => `\tsample${i}()\n`).join("")}}\n`);
    writeFileSync(join(dir, "samples", "go.mod"), "module samples\n\ngo 1.19\n");
    const { stdout } = await run("go", ["run", "."], { cwd: join(dir, "samples"), timeout: 180_000, env: { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" } });
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the TypeScript client's samples, which read the base URL and the credentials from the
 * environment (BASE_URL, API_KEY, API_SECRET) as openapi/code_samples/ does. Each sample is a
 * file of `dir` (a directory under a package.json with "type": "module" and node_modules, so
 * `@authsvc/app-api-contract` resolves to the repository's client through tsconfig.json's
 * paths): `tsc` type-checks them all in one run, then one node with tsx's loader imports them
 * in order (a sample's top-level await finishes before the next starts; one that throws on an
 * error answer stops the run).
 */
export async function runTypeScriptSamples(texts: string[], dir: string, root: string, env: NodeJS.ProcessEnv): Promise<string> {
  mkdirSync(dir, { recursive: true });
  texts.forEach((text, i) => writeFileSync(join(dir, `sample${i}.ts`), text));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: join(root, "tsconfig.json"), include: ["sample*.ts"] }));
  writeFileSync(join(dir, "main.mjs"), texts.map((_, i) => `await import("./sample${i}.ts");\n`).join(""));
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  await run(process.execPath, [tsc, "-p", dir], { cwd: dir, timeout: 180_000 }).catch((error: { stdout?: string }) => {
    throw new Error(`the TypeScript samples do not type-check:\n${error.stdout}`);
  });
  const { stdout } = await run(process.execPath, ["--import", "tsx", "main.mjs"], { cwd: dir, timeout: 180_000, env: { ...process.env, ...env } });
  return stdout;
}
