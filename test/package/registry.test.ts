// The packages through a real registry, as a team publishes to its company registry:
// Verdaccio on 127.0.0.1 (storage in a temporary directory, no uplinks, only the @authsvc
// scope is asked of it), one per run. The run's packed tarballs are published; a fresh app
// installs the four packages by name and range; a copy of this repository makes the next
// minor release with `npm run release` and `npm publish --workspaces` (the publish check,
// then the builds); `npm update` in the app takes it. Then, in that copy, a breaking change
// released as a minor and a version that disagrees are both refused by `npm publish` before
// anything is built, and the registry never sees them. Every step is printed (the transcript).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port.js";
import { npm, packageNames, packed, scratch } from "../support/pack.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const version: string = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
const [major, minor] = version.split(".").map(Number) as [number, number];
const next = `${major}.${minor + 1}.0`;
const names = Object.values(packageNames);
const keys = Object.keys(packageNames) as (keyof typeof packageNames)[];
const transcript: string[] = [];

let registry: ChildProcess;
let url: string;
let npmrc: string;
let repo: string;
let app: string;

/** Runs npm in `cwd` (never throws); the command and the last lines of its output go into the transcript. */
function npmIn(cwd: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(npm, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const tail = `${result.stdout}\n${result.stderr}`
    .split("\n")
    .filter((line) => /\S/.test(line) && !/[║╔╚]|Unknown user config|^\s+at /.test(line))
    .slice(-6);
  transcript.push(`$ npm ${args.join(" ")}   (in ${cwd.replace(scratch(), "<scratch>")}, exit ${result.status})`, ...tail.map((line) => `  ${line}`));
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts Verdaccio and resolves with a token for a user made on it. */
async function startRegistry(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "config.yaml"),
    [
      "storage: ./storage",
      "auth:",
      "  htpasswd:",
      "    file: ./htpasswd",
      "    max_users: 10",
      "uplinks: {}",
      "packages:",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const port = await freePort();
  url = `http://127.0.0.1:${port}/`;
  const bin = join(root, "node_modules/verdaccio/bin/verdaccio");
  registry = spawn(process.execPath, [bin, "--config", join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`], { stdio: "ignore" });
  for (let attempt = 0; ; attempt++) {
    const ping = await fetch(`${url}-/ping`).catch(() => undefined);
    if (ping?.ok) break;
    if (attempt > 240 || registry.exitCode !== null) throw new Error("Verdaccio did not start");
    await sleep(250);
  }
  const user = await fetch(`${url}-/user/org.couchdb.user:release`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release", password: "release-test-only" }),
  });
  const { token } = (await user.json()) as { token: string };
  transcript.push(`Verdaccio ${url} (storage ${dir.replace(scratch(), "<scratch>")}/storage, no uplinks)`);
  return token;
}

/** A copy of the repository's files (tracked and new, not ignored) with the repository's node_modules linked in. */
function copyRepository(to: string): void {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    if (!existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(root, file), join(to, file));
  }
  symlinkSync(join(root, "node_modules"), join(to, "node_modules"));
  // A git repository without tags, as a fresh clone of a tagless mirror: the gate compares with release/openapi.json.
  for (const args of [
    ["init", "-q"],
    ["add", "-A"],
    ["-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-qm", "copy"],
  ])
    spawnSync("git", args, { cwd: to });
}

/** The versions of `name` on the registry. A kept-alive socket Verdaccio closed after a long step fails once: asked again. */
async function published(name: string): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      const body = (await (await fetch(`${url}${name.replace("/", "%2f")}`)).json()) as { versions?: object };
      return Object.keys(body.versions ?? {});
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
const installedVersions = (dir: string) =>
  Object.fromEntries(names.map((name) => [name, JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")).version as string]));

beforeAll(async () => {
  const base = join(scratch(), "registry");
  const token = await startRegistry(join(base, "verdaccio"));
  // The usual npm configuration of a consumer of a company registry: the scope's registry
  // (everything else from the default registry), and a token for the registry's host.
  npmrc = `@authsvc:registry=${url}\n${url.replace(/^http:/, "")}:_authToken=${token}\n`;
  writeFileSync(join(base, ".npmrc"), npmrc);
  const tarballs = await packed();
  for (const key of keys) npmIn(base, ["publish", tarballs[key].tarball]);
  repo = join(base, "repo");
  app = join(base, "app");
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, ".npmrc"), npmrc);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "registry-consumer", version: "1.0.0", private: true, type: "module" }));
}, 1_200_000);

afterAll(() => {
  registry?.kill("SIGKILL");
  console.log(`registry transcript:\n${transcript.join("\n")}`);
});

describe("the packages through a registry (Verdaccio on 127.0.0.1)", () => {
  it(`a fresh app installs the four packages by name and range (^${version})`, async () => {
    for (const name of names) expect(await published(name)).toEqual([version]);
    const install = npmIn(app, ["install", ...names.map((name) => `${name}@^${version}`), "--no-audit", "--no-fund", "--prefer-offline"]);
    expect(install.status).toBe(0);
    expect(installedVersions(app)).toEqual(Object.fromEntries(names.map((name) => [name, version])));
    expect(JSON.parse(readFileSync(join(app, "package.json"), "utf8")).dependencies).toEqual(Object.fromEntries(names.map((name) => [name, `^${version}`])));
  }, 300_000);

  it(`npm run release -- ${next} and npm publish --workspaces publish the minor release, and npm update takes it`, async () => {
    copyRepository(repo);
    writeFileSync(join(repo, ".npmrc"), npmrc);
    // Notes of a minor release, in place of whatever this repository has under [Unreleased].
    const changelog = readFileSync(join(repo, "CHANGELOG.md"), "utf8").replace(
      /## \[Unreleased\][\s\S]*?(?=\n## \[)/,
      "## [Unreleased]\n\n### Changed\n\n- The registry test's minor release.\n",
    );
    writeFileSync(join(repo, "CHANGELOG.md"), changelog);
    expect(npmIn(repo, ["run", "release", "--", next]).status).toBe(0);
    const publish = npmIn(repo, ["publish", "--workspaces"]);
    expect(publish.stdout + publish.stderr).toMatch(new RegExp(`publish-check: ${next.replace(/\./g, "\\.")} may be published`));
    expect(publish.status).toBe(0);
    for (const name of names) expect(await published(name)).toEqual([version, next]);

    expect(npmIn(app, ["update", "--no-audit", "--no-fund", "--prefer-offline"]).status).toBe(0);
    expect(installedVersions(app)).toEqual(Object.fromEntries(names.map((name) => [name, next])));
    const document = JSON.parse(readFileSync(join(app, "node_modules", packageNames.contract, "dist/generated/openapi.json"), "utf8"));
    expect(document.info.version).toBe(next);
  }, 600_000);

  it("a breaking change released as a minor is refused by npm publish before anything is built", async () => {
    const breaking = `${major}.${minor + 2}.0`;
    // A shorter maxLength on a request field refuses what clients may send today.
    const schema = join(repo, "openapi/components/schemas/NotificationName.yaml");
    const before = readFileSync(schema, "utf8");
    writeFileSync(
      schema,
      before.replace(/^(type: string\nmaxLength: )100\n/, (_, head: string) => `${head}60\n`),
    );
    expect(readFileSync(schema, "utf8")).not.toBe(before);
    writeFileSync(
      join(repo, "CHANGELOG.md"),
      readFileSync(join(repo, "CHANGELOG.md"), "utf8").replace(
        "## [Unreleased]\n",
        "## [Unreleased]\n\n### Changed\n\n- POST /notifications: `name` at most 60 characters.\n",
      ),
    );
    expect(npmIn(repo, ["run", "release", "--", breaking]).status).toBe(0);
    for (const key of keys) rmSync(join(repo, "packages", key, "dist"), { recursive: true, force: true });

    const publish = npmIn(repo, ["publish", "--workspaces"]);
    expect(publish.status).not.toBe(0);
    expect(publish.stderr).toContain("publish-check: refused: the breaking-change gate refused");
    for (const name of names) expect(await published(name)).toEqual([version, next]);
    // prepack never ran: no package was built.
    expect(keys.filter((key) => existsSync(join(repo, "packages", key, "dist")))).toEqual([]);
  }, 300_000);

  it("a package whose version disagrees with the others is refused by npm publish", async () => {
    const manifest = join(repo, "packages/mock/package.json");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace(/"version": "[^"]+"/, `"version": "${major}.${minor + 3}.0"`));
    const publish = npmIn(repo, ["publish", "--workspace", "packages/mock"]);
    expect(publish.status).not.toBe(0);
    expect(publish.stderr).toMatch(/publish-check: refused: packages\/mock\/package\.json says \d+\.\d+\.\d+, package\.json says/);
    expect(await published(packageNames.mock)).toEqual([version, next]);
  }, 120_000);
});
