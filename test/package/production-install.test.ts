// A service implementing the API, installed for production as a team deploys it: the packed
// server package and Express as dependencies, the packed conformance package (Redocly CLI and
// the suite) as a devDependency, `npm install --omit=dev`. What lands in node_modules is
// counted (packages on disk, bytes of their files) and printed with the largest packages; no
// development tool may be among them, and the bytes stay within the target of issue 31.
// Beside it, Express and express-openapi-validator alone (the two the design fixes) are
// installed the same way: their count is the floor no arrangement of this package can go
// under, so the issue's 100 packages is measured against it rather than claimed.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { npm, packageNames, packed, run, scratch } from "../support/pack.js";
import { bytesUnder } from "../../bench/footprint/bytes.js";

/** As bench:footprint counts them (docs/publishing.md): 1 MB = 10⁶ bytes. */
const mb = (bytes: number) => bytes / 1e6;
let project: string;
let installed: string[];
let lockPaths: string[];
let floor: string[];

/** Installs `manifest` with `npm install --omit=dev` in a fresh folder; answers the lock's packages and which of them are on disk. */
async function installForProduction(name: string, manifest: object): Promise<{ project: string; lockPaths: string[]; installed: string[] }> {
  const folder = join(scratch(), name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "package.json"), `${JSON.stringify({ name, version: "1.0.0", private: true, type: "module", ...manifest }, null, 2)}\n`);
  await run(npm, ["install", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: folder, maxBuffer: 16 * 1024 * 1024 });
  const lock = JSON.parse(readFileSync(join(folder, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
  const paths = Object.keys(lock.packages).filter((path) => path.startsWith("node_modules/"));
  return { project: folder, lockPaths: paths, installed: paths.filter((path) => existsSync(join(folder, path))) };
}

beforeAll(async () => {
  const tarballs = await packed();
  const locked = JSON.parse(readFileSync("package-lock.json", "utf8")).packages as Record<string, { version: string }>;
  const express = locked["node_modules/express"]!.version;
  const validator = locked["node_modules/express-openapi-validator"]!.version;
  ({ project, lockPaths, installed } = await installForProduction("production-service", {
    dependencies: { [packageNames.server]: `file:${tarballs.server.tarball}`, express },
    devDependencies: { [packageNames.conformance]: `file:${tarballs.conformance.tarball}` },
  }));
  floor = (await installForProduction("express-and-validator-alone", { dependencies: { express, "express-openapi-validator": validator } })).installed;
}, 600_000);

describe("a createContractApp service installed with --omit=dev", () => {
  test("carries no development tool, and is at most 20 MB", () => {
    const bytes = bytesUnder(join(project, "node_modules"));
    const sizes = installed.map((path) => [path.replace(/^node_modules\//, ""), bytesUnder(join(project, path))] as const).sort((a, b) => b[1] - a[1]);
    const types = installed.filter((path) => /node_modules\/(@types\/|undici-types$)/.test(path));
    console.log(
      `production install of a createContractApp service (server package + express, --omit=dev): ${installed.length} packages, ${mb(bytes).toFixed(2)} MB in node_modules; largest: ${sizes
        .slice(0, 6)
        .map(([name, size]) => `${name} ${mb(size).toFixed(2)} MB`)
        .join(
          ", ",
        )}; type packages (express-openapi-validator's dependency @types/multer): ${types.length}, ${mb(types.reduce((n, path) => n + bytesUnder(join(project, path)), 0)).toFixed(2)} MB`,
    );
    // The devDependency is resolved (in the lock) but not installed.
    expect(lockPaths).toContain(`node_modules/${packageNames.conformance}`);
    expect(
      installed.filter((path) =>
        /node_modules\/(@redocly\/|@stoplight\/|@authsvc\/app-api-(conformance|mock)$|react|msw$|vitest|typescript$|openapi-typescript|verdaccio|playwright)/.test(path),
      ),
    ).toEqual([]);
    expect(bytes).toBeLessThanOrEqual(20e6);
    // The issue's target is 100 packages: Express and express-openapi-validator are more
    // alone (105 with 5.6.2, 13 of them type packages through its dependency @types/multer),
    // so what is bounded is what this package adds to them (its own dependencies).
    console.log(`floor: express + express-openapi-validator alone, --omit=dev: ${floor.length} packages; the server package adds ${installed.length - floor.length}`);
    const nameOf = (path: string) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
    const names = new Set(installed.map(nameOf));
    expect(floor.map(nameOf).filter((name) => !names.has(name))).toEqual([]);
    expect(installed.length - floor.length).toBeLessThanOrEqual(20);
  });

  test("authsvc-api conformance there says which package to install for development", async () => {
    const bin = join(project, "node_modules", packageNames.server, "dist/cli/authsvc-api.js");
    const outcome = await run(process.execPath, [bin, "conformance", "--help"], { cwd: project }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr.trim()).toBe("authsvc-api conformance comes with @authsvc/app-api-conformance: npm install --save-dev @authsvc/app-api-conformance");
  }, 60_000);
});
