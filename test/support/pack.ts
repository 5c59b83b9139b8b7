// The packages as consumer projects get them, shared by every package test of a run: the
// four workspace packages packed once (`npm pack --workspaces`: each one's prepack builds
// its dist/) into the run's scratch directory (test/package/shared-install.ts), and each
// consumer project installed once from those tarballs plus what else it lists, from the npm
// cache (no path into this repository's node_modules). The first test file to ask does the
// work under a lock directory; the others wait for its result.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { inject } from "vitest";

export const run = promisify(execFile);
export const npm = process.platform === "win32" ? "npm.cmd" : "npm";
export const npx = process.platform === "win32" ? "npx.cmd" : "npx";

const root = fileURLToPath(new URL("../../", import.meta.url));
const rootLock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, { name?: string; version?: string }> };

/** The published packages by short name. */
export const packageNames = {
  contract: "@authsvc/app-api-contract",
  mock: "@authsvc/app-api-mock",
  server: "@authsvc/app-api-server",
  conformance: "@authsvc/app-api-conformance",
} as const;
export type PackageKey = keyof typeof packageNames;

export interface PackedPackage {
  /** The tarball's path. */
  tarball: string;
  /** The files in the tarball. */
  files: string[];
}

/** The run's scratch directory (from the global setup). */
export function scratch(): string {
  const dir = inject("packScratch");
  if (!dir) throw new Error("no packScratch: run the package tests with test/vitest.config.ts (its globalSetup makes it)");
  return dir;
}

/** `make()` once per run across test files and workers: the first caller runs it, the others read its JSON result. */
async function oncePerRun<T>(key: string, make: () => Promise<T>): Promise<T> {
  const done = join(scratch(), `${key}.result.json`);
  const lock = join(scratch(), `${key}.lock`);
  for (;;) {
    if (existsSync(done)) {
      const outcome = JSON.parse(readFileSync(done, "utf8")) as { value?: T; error?: string };
      if (outcome.error !== undefined) throw new Error(`${key} failed in another test file: ${outcome.error}`);
      return outcome.value as T;
    }
    try {
      mkdirSync(lock);
    } catch {
      await sleep(250);
      continue;
    }
    try {
      const value = await make();
      writeFileSync(done, JSON.stringify({ value }));
      return value;
    } catch (error) {
      writeFileSync(done, JSON.stringify({ error: (error as Error).stack ?? String(error) }));
      throw error;
    }
  }
}

/** The four packages, packed once per run. */
export function packed(): Promise<Record<PackageKey, PackedPackage>> {
  return oncePerRun("packed", async () => {
    const dir = join(scratch(), "tarballs");
    mkdirSync(dir, { recursive: true });
    const { stdout } = await run(npm, ["pack", "--workspaces", "--json", "--pack-destination", dir], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    // prepack's build output comes first; the JSON report is the last thing npm prints.
    const reports = JSON.parse(stdout.slice(stdout.lastIndexOf("\n[") + 1)) as { name: string; filename: string; files: { path: string }[] }[];
    const byName = Object.fromEntries(reports.map((report) => [report.name, { tarball: join(dir, report.filename), files: report.files.map((f) => f.path) }]));
    return Object.fromEntries(Object.entries(packageNames).map(([key, name]) => [key, byName[name]!])) as Record<PackageKey, PackedPackage>;
  });
}

/** The exact version of a package this repository installed (to give the consumer the same). */
export function versionOf(name: string): string {
  const version = rootLock.packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`${name} is not in package-lock.json`);
  return `${name}@${version}`;
}

/** An aliased devDependency of this repository as npm installs it elsewhere: `typescript7@npm:typescript@7.0.2`. */
export function aliasOf(alias: string): string {
  const entry = rootLock.packages[`node_modules/${alias}`];
  if (!entry?.name || !entry.version) throw new Error(`${alias} is not an aliased package in package-lock.json`);
  return `${alias}@npm:${entry.name}@${entry.version}`;
}

/**
 * A consumer project `name` in the run's scratch directory, installed once per run: a fresh
 * package.json, the tarballs of `packages` and `also` (exact versions, e.g. `vitest@4.1.12`)
 * in one `npm install`, preferring the cache. Resolves with the project's directory.
 */
export function installedProject(name: string, packages: PackageKey[], also: string[] = []): Promise<string> {
  return oncePerRun(`project-${name}`, async () => {
    const tarballs = await packed();
    const dir = join(scratch(), name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name, version: "1.0.0", private: true, type: "module" }, null, 2)}\n`);
    const specs = [...packages.map((key) => tarballs[key].tarball), ...also];
    await run(npm, ["install", ...specs, "--no-audit", "--no-fund", "--prefer-offline", "--save-exact"], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
    return dir;
  });
}

/**
 * What `npm i -D` installs today for a frontend's tests (not this repository's own versions):
 * vitest 5 with its jsdom and happy-dom environments, React Testing Library for hooks, and
 * Playwright's test runner (its `webServer` starts the mock; no browser is downloaded).
 */
const frontendTestTools = [
  "vitest@5.1.2",
  "jsdom@31.0.1",
  "happy-dom@21.0.4",
  "react-dom@19.3.1",
  "@testing-library/react@16.3.3",
  "@testing-library/dom@10.4.2",
  "@playwright/test@1.65.1",
];

/**
 * The consumer project of the frontend and backend tests: all four packages together, with
 * the tools they run and the React stack a frontend puts the client in (TanStack Query via
 * openapi-react-query), each at the version this repository checks its own types against.
 */
export const fullProject = () =>
  installedProject(
    "app",
    ["contract", "mock", "server", "conformance"],
    [
      ...["msw", "typescript", "esbuild", "express", "express-openapi-validator"],
      ...["openapi-react-query", "@tanstack/react-query", "react", "@types/react"],
      // The Lambda adapters docs/backend.md's serverless recipes import.
      ...["serverless-http", "@codegenie/serverless-express"],
    ]
      .map(versionOf)
      // TypeScript 7 beside 5.9: what `npm create vite` installs now, checked with the same sources;
      // MSW 2 beside MSW 3 (`msw`, what `npm i -D msw` installs), for the runs under MSW 2.
      .concat(aliasOf("typescript7"), aliasOf("msw2"), frontendTestTools),
  );

/**
 * The frontend consumer: `fullProject()` with test/package/consumer/ (its sources, tests and
 * tsconfigs) copied in once per run, for the runtime and the type-check files alike.
 */
export const frontendProject = () =>
  oncePerRun("frontend-project", async () => {
    const dir = await fullProject();
    cpSync(fileURLToPath(new URL("../package/consumer/", import.meta.url)), dir, { recursive: true });
    return dir;
  });

/** A project with the contract package alone, as a frontend or a calling service installs it. */
export const contractProject = () => installedProject("contract-only", ["contract"]);
