// Adds a real operation, DELETE /webhooks/{id} (deleteWebhook), to a throwaway copy of the
// project by editing exactly the files docs/adding-an-operation.md lists
// (./delete-webhook-edits.ts), then runs what the guide says to run there: the lint, `npm
// run generate`, `npm run changelog`, tsc and the suites an operation reaches. It shows that
// every step exits 0, that the copy's `git status` holds only files the guide's table names,
// and that the copy's reference server answers the new operation 204, then 404.
// (adding-an-operation.test.ts is the fast, in-process half: the coverage lines a missing
// piece produces.)
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appA, appB, recordsOf } from "../support/demo.js";
import { applyEdits } from "./delete-webhook-edits.js";
import { root, run, type Ran } from "./run.js";

const copy = join(mkdtempSync(join(tmpdir(), "adding-an-operation-copy-")), "project");
afterAll(() => rmSync(dirname(copy), { recursive: true, force: true }));

// What the copy leaves out: nothing in it reads them (docs/ and records/ are prose, the
// package tests pack and install, .ci runs the whole suite), and fewer files make the copy and tsc faster.
const leftOut = /^(docs\/|records\/|\.ci\/|test\/package\/(?!shared-install\.ts$)|test\/docs\/(?!static-server\.ts$)|stryker\.config\.mjs$)/;

// The suites an added operation reaches, run in the copy (the rest of `npm test` reads the
// same generated table, and costs minutes):
const suites = [
  // its own rules, through the handlers over a fresh store;
  "test/server/operations/delete-webhook.test.ts",
  // the coverage checks: nothing lacks a handler, a conformance check or an example;
  "test/tooling/adding-an-operation.test.ts",
  // the server refuses a handler map that does not match the document (the new entry included);
  "test/express-entry/handler-map.test.ts",
  // its own 400/401/404 examples name its path, scheme and parameter;
  "test/openapi/error-examples.test.ts",
  // every conformance check, the new operation's included, against the in-memory reference
  // server (TEST_POSTGRES=off: the PostgreSQL store's method is compiled by tsc; a cluster
  // per suite would double the time).
  "test/conformance/server.test.ts",
  // derived suites that met a success without a body and a deleting operation: an example
  // only where a response has a body, every operation's valid request with the deletes last,
  // the MSW handlers' bodiless 204, the seed's examples of the operations that answer one.
  "test/openapi/examples.test.ts",
  "test/server/middleware/auth-matrix.test.ts",
  "test/msw/msw.test.ts",
  "test/stores/memory/examples.test.ts",
];

const git = (...args: string[]) => run("git", ["-c", "user.name=copy", "-c", "user.email=copy@127.0.0.1", ...args], copy);

interface Step extends Ran {
  name: string;
  seconds: number;
}
const steps: Step[] = [];

async function step(name: string, command: string, args: string[], env: Record<string, string> = {}): Promise<Step> {
  const started = performance.now();
  const ran = await run(command, args, copy, env);
  const done = { name, ...ran, seconds: Math.round((performance.now() - started) / 100) / 10 };
  steps.push(done);
  return done;
}

/** The files the guide's table names, as patterns: `<OperationId>`, `<operationId>` and `…` filled in. */
function guideFiles(): RegExp[] {
  const guide = readFileSync(join(root, "docs/adding-an-operation.md"), "utf8");
  const table = guide.split("## Every file an added operation touches")[1]!.split("\n## ")[0]!;
  const cells = table
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.split("|")[1]!);
  return cells.flatMap((cell) =>
    [...cell.matchAll(/`([^`]+)`/g)].map((m) => {
      const pattern = m[1]!
        .replace(/[.*+?^$()[\]\\]/g, "\\$&")
        .replace(/\{(\w+(?:,\w+)+)\}/g, (_, list: string) => `(${list.split(",").join("|")})`)
        .replace(/[{}]/g, "\\$&")
        .replaceAll("<OperationId>", "DeleteWebhook")
        .replaceAll("<operationId>", "deleteWebhook")
        .replaceAll("…", ".+");
      return new RegExp(`^${pattern}$`);
    }),
  );
}

describe("adding DELETE /webhooks/{id} to a copy of the project", () => {
  let changed: string[] = [];

  beforeAll(async () => {
    const tracked = (await run("git", ["ls-files"], root)).output.split("\n").filter((file) => file !== "" && !leftOut.test(file));
    for (const file of tracked) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(root, file), join(copy, file));
    }
    symlinkSync(join(root, "node_modules"), join(copy, "node_modules"));
    await git("init", "-q");
    await git("add", "-A");
    await git("commit", "-q", "-m", "the project as it is");

    applyEdits(copy);
    const bin = (name: string) => join(root, "node_modules/.bin", name);
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    for (const [name, command, args, env] of [
      ["lint:api", npm, ["run", "-s", "lint:api"]],
      ["generate", npm, ["run", "-s", "generate"]],
      ["changelog", npm, ["run", "-s", "changelog"]],
      ["tsc --noEmit", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"]],
      [
        `vitest (${suites.length} suites)`,
        bin("vitest"),
        // The msw2 project reruns test/msw/ under MSW 2: one run of each suite is what the copy needs.
        ["run", "--config", "test/vitest.config.ts", "--project=in-process", "--project=isolated", "--typecheck.enabled=false", "--reporter=verbose", ...suites],
        // The copy's PostgreSQL is off on purpose: not a skip for CI's summary to report.
        { TEST_POSTGRES: "off", SKIP_REPORT_FILE: "" },
      ],
    ] as [string, string, string[], Record<string, string>?][]) {
      const done = await step(name, command, args, env);
      if (done.code !== 0) break;
    }
    const status = await git("status", "--porcelain", "--untracked-files=all");
    changed = status.output
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => line.slice(3))
      .sort();
    console.log(steps.map((s) => `${s.name}: exit ${s.code}, ${s.seconds} s`).join("\n") + `\nchanged:\n${changed.join("\n")}`);
  }, 600_000);

  it("runs every step the guide names, each exiting 0", () => {
    const failed = steps.filter((s) => s.code !== 0).map((s) => `${s.name} exited ${s.code}:\n${s.output.slice(-4000)}`);
    expect(failed).toEqual([]);
    expect(steps.map((s) => s.name)).toEqual(["lint:api", "generate", "changelog", "tsc --noEmit", `vitest (${suites.length} suites)`]);
  });

  it("ran the new operation's tests and every conformance check, its deleting one last on a spare webhook", () => {
    const vitest = steps.find((s) => s.name.startsWith("vitest"))!.output;
    // Without a terminal the verbose reporter puts the vitest project's name before the file: `✓ |in-process| test/…`.
    const lines = (needle: string) =>
      vitest
        .split("\n")
        .filter((line) => line.includes(needle))
        .join("\n");
    expect(vitest.match(/✓ +(?:\|[a-z-]+\| +)?test\/server\/operations\/delete-webhook\.test\.ts > /g), lines("delete-webhook")).toHaveLength(3);
    expect(vitest).toMatch(new RegExp(`Test Files\\s+${suites.length} passed \\(${suites.length}\\)`));
    expect(vitest).toMatch(
      /✓ +(?:\|[a-z-]+\| +)?test\/conformance\/server\.test\.ts > .*\(in-memory\) > .* > deleteWebhook: 204 on a disposable webhook, then 404 for it \(run last\)/,
    );
    const summary = /conformance \[server \(in-memory\)\]: (\d+) checks, (\d+) ran \((\d+) passed, 0 failed\), 0 skipped/.exec(vitest);
    expect(summary?.slice(1).every((n) => n === summary[1])).toBe(true);
  });

  it("npm run changelog wrote the added operation into CHANGELOG.md", async () => {
    const added = (await git("diff", "-U0", "CHANGELOG.md")).output.split("\n").filter((line) => line.startsWith("+-"));
    expect(added.filter((line) => line.startsWith("+- DELETE /webhooks/{id}: ") && line.includes(" added."))).toHaveLength(1);
  });

  it("changes only files the guide's table names, and every kind of file it names", () => {
    const patterns = guideFiles();
    expect(changed.filter((file) => !patterns.some((p) => p.test(file)))).toEqual([]);
    expect(changed).toEqual(
      [
        "CHANGELOG.md",
        "conformance/calls.ts",
        "conformance/contract-checks.ts",
        "generated/examples.ts",
        "generated/openapi.json",
        "generated/operations.ts",
        "generated/postman/collection.json",
        "generated/schema.d.ts",
        "generated/validators.cjs",
        ...["NotFound", "Unauthorized", "ValidationFailed"].map((kind) => `openapi/components/examples/DeleteWebhook${kind}Problem.yaml`),
        ...["NotFound", "Unauthorized", "ValidationFailed"].map((kind) => `openapi/components/responses/DeleteWebhook${kind}.yaml`),
        "openapi/code_samples/deleteWebhook/client.ts",
        "openapi/code_samples/deleteWebhook/curl.sh",
        "openapi/paths/webhooks_{id}.yaml",
        "server/handlers/index.ts",
        "server/handlers/webhooks.ts",
        "server/domain/store.ts",
        "server/store/memory.ts",
        "server/store/postgres/index.ts",
        "server/store/postgres/sql.ts",
        "test/server/operations/delete-webhook.test.ts",
        "test/types/handlers.test-d.ts",
      ].sort(),
    );
  });

  it("the copy's reference server answers DELETE 204, then 404; another application's webhook 404", async () => {
    const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      cwd: copy,
      env: { ...process.env, PORT: "0", LOG_LEVEL: "silent", RATE_LIMIT: "off", FAILED_AUTH_LIMIT: "off" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let printed = "";
        server.stdout.on("data", (chunk: Buffer) => {
          printed += chunk;
          const found = /listening on (http:\/\/\S+)/.exec(printed);
          if (found) resolve(found[1]!);
        });
        server.stderr.on("data", (chunk: Buffer) => (printed += chunk));
        server.on("exit", (code) => reject(new Error(`the server exited ${code}: ${printed}`)));
      });
      const remove = (id: string, apiKey = appA.apiKey) => fetch(`${url}/webhooks/${id}`, { method: "DELETE", headers: { authorization: `Bearer ${apiKey}` } });
      const [mine] = recordsOf(appA).webhooks;
      const [theirs] = recordsOf(appB).webhooks;

      const first = await remove(mine!);
      expect([first.status, await first.text()]).toEqual([204, ""]);
      const again = await remove(mine!);
      expect([again.status, again.headers.get("content-type"), ((await again.json()) as { code: string }).code]).toEqual([
        404,
        "application/problem+json; charset=utf-8",
        "not_found",
      ]);
      expect((await remove(theirs!)).status).toBe(404);
      expect((await remove(theirs!, appB.apiKey)).status).toBe(204);
    } finally {
      server.kill();
    }
  });
});
