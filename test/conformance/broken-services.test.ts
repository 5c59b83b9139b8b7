// `authsvc-api conformance` against services broken the ways a backend team breaks them,
// each the reference server with one handler changed, and caught by the combined run (the
// Arazzo workflows through respect, then the TypeScript checks): a report filter ignored
// (TypeScript), a webhook and a widget served to any application (two steps of the
// tenant-isolation workflow, which a run without the second application's fixture skips:
// --fail-on-skip fails it), an
// answer outside the document (a workflow step), a service that is not running (one error,
// exit 2), a fixture the service does not hold (a fixture error, not a service failure),
// a 500 whose request id the report shows (a workflow step), a 500 for an answer the
// service's own response validation refused (named as such, with where and which rule), and
// an operation not implemented yet, whose documented 501 fails its steps and checks with the
// hint to --skip-not-implemented.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exampleFixtures } from "../../conformance/calls.js";
import { listChecks } from "../../conformance/list-checks.js";
import type { Handlers } from "../../server/contract-layer/contract.js";
import { createHandlers } from "../../server/handlers/index.js";
import { ApiProblem } from "../../server/problems.js";
import { startServer, type RunningServer } from "../../server/reference-server.js";
import { loadSeed } from "../../server/seed/load.js";
import { createStore } from "../../server/store/memory.js";
import { appA, appB, recordsOfA } from "../support/demo.js";
import { conformanceCommand } from "./run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "conformance-broken-"));
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(dir, { recursive: true, force: true });
});

const shared = { ...exampleFixtures(), smsProvider: recordsOfA.defaultSmsProvider! };
function fixturesFile(name: string, fixtures: object): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(fixtures));
  return file;
}

/** The reference server over the demo seed with some handlers replaced. */
async function serviceWith(change: (real: Handlers) => Partial<Handlers>, options: { validateResponses?: boolean } = {}): Promise<string[]> {
  const store = createStore(loadSeed());
  const real = createHandlers({ store, clock: () => new Date() });
  const server = await startServer({ store, rateLimit: false, failedAuthLimit: false, handlers: change(real), ...options });
  servers.push(server);
  return ["--base-url", server.url, "--api-key", appA.apiKey, "--api-secret", appA.apiSecret];
}

describe("conformance against broken services", () => {
  it("a service ignoring the region filter fails the region checks, and only those", async () => {
    const base = await serviceWith((real) => ({
      findEncryptionReports: (input) => real.findEncryptionReports({ ...input, query: { ...input.query, region: undefined } }),
    }));
    const { code, out } = await conformanceCommand([
      ...base,
      "--fixtures",
      fixturesFile("all.json", { ...shared, otherApplication: { apiKey: appB.apiKey, apiSecret: appB.apiSecret } }),
    ]);
    expect(code).toBe(1);
    const failed = out.split("\n").filter((line) => line.startsWith("FAIL"));
    expect(failed).toEqual([
      "FAIL  findEncryptionReports: the region filter narrows the list (region=ZZ matches no record)",
      "FAIL  findEncryptionReports: the region filter keeps exactly the records whose region.code is the value",
    ]);
    expect(out).toMatch(/the region filter is ignored: region=ZZ finds \d+ of \d+ records/);
    expect(out).toMatch(/result: FAIL: 2 failed, 0 skipped/);
    expect(out).toMatch(/\n {2}contract \d+\.\d+\.\d+: the document these checks hold the target to \(install this package at the version of the service's contract\)\n/);
  }, 240_000);

  it("every filter of the document has its checks", () => {
    const names = listChecks.map((check) => check.name);
    for (const filter of ["group", "account", "region", "device_version", "device_type", "ip", "email", "country", "status", "start_date", "end_date"]) {
      expect(
        names.some((name) => name.startsWith(`findEncryptionReports: the ${filter} filter`)),
        filter,
      ).toBe(true);
    }
  });

  // Two leaks, the second step of tenant-isolation and its fourth: the steps after a leak
  // still run (each is a workflow of its own inside respect), so both are named and the
  // four that hold pass; a leak cannot hide another behind "not run".
  it("a service leaking webhooks and widgets across applications passes without the second application, fails with --fail-on-skip, and fails on both leaks with it", async () => {
    const asA = { applicationId: appA.applicationId, organizationId: appA.organizationId };
    const base = await serviceWith((real) => ({
      readWidget: (input) => real.readWidget({ ...input, caller: asA }),
      readWebhook: (input) => real.readWebhook({ ...input, caller: asA }),
    }));
    const withoutOther = fixturesFile("no-other.json", shared);
    const lenient = await conformanceCommand([...base, "--fixtures", withoutOther]);
    expect(lenient.code).toBe(0);
    expect(lenient.out).toMatch(/result: PASS: 0 failed, \d+ skipped \(not counted; --fail-on-skip counts them\)/);

    const strict = await conformanceCommand([...base, "--fixtures", withoutOther, "--fail-on-skip"]);
    expect(strict.code).toBe(1);
    expect(strict.out).toMatch(/skipped \d+: needs otherApplication in the fixtures file/);
    expect(strict.out).toMatch(/result: FAIL: 0 failed, \d+ skipped \(--fail-on-skip: each counts as a failure\)/);

    const full = await conformanceCommand([
      ...base,
      "--fixtures",
      fixturesFile("other.json", { ...shared, otherApplication: { apiKey: appB.apiKey, apiSecret: appB.apiSecret } }),
    ]);
    expect(full.code).toBe(1);
    const lines = full.out.split("\n");
    expect(lines.filter((line) => line.startsWith("FAIL"))).toEqual([
      "FAIL  readWebhook: workflow tenant-isolation, step webhook",
      "FAIL  readWidget: workflow tenant-isolation, step widget",
    ]);
    expect(lines.filter((line) => /^PASS .*workflow tenant-isolation/.test(line))).toHaveLength(4);
    expect(lines.filter((line) => line.startsWith("SKIP"))).toEqual([]);
    expect(full.out).toMatch(/readWidget: workflow tenant-isolation, step widget\n\s+GET \S+\/widgets\/wgt_5a3c8e1f7b92 → 200: success criteria check/);
    expect(full.out).toContain("arazzo: 8 workflows (7 passed, 1 failed, 0 skipped)");
  }, 480_000);

  // The success answers are judged on the workflow steps now: Respect's schema check, plus
  // the document's formats, which Respect's validator skips (a `url` that is not a URI).
  it("a service answering a webhook outside the document (its responses not validated) fails the steps that read it, and only those", async () => {
    const base = await serviceWith(
      (real) => ({
        readWebhook: async (input) => {
          const answer = (await real.readWebhook(input)) as { result: { url: string } };
          return { ...answer, result: { ...answer.result, url: "not a URI" } } as never;
        },
      }),
      { validateResponses: false },
    );
    const { code, out } = await conformanceCommand([
      ...base,
      "--fixtures",
      fixturesFile("format.json", { ...shared, otherApplication: { apiKey: appB.apiKey, apiSecret: appB.apiSecret } }),
    ]);
    expect(code).toBe(1);
    const failed = out.split("\n").filter((line) => line.startsWith("FAIL"));
    expect(failed).toEqual(["FAIL  readWebhook: workflow webhooks-list-read-history, step read", "FAIL  readWebhook: workflow stateful-reads, step read-listed"]);
    expect(out).toContain(`body does not match the 200 response schema: body/result/url must match format "uri"`);
  }, 240_000);

  it("a service that is not running is one error, exit 2", async () => {
    const base = await serviceWith(() => ({}));
    await servers.pop()!.close();
    const { code, out, err } = await conformanceCommand(base);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err.split("\n")).toHaveLength(1);
    expect(err).toMatch(/^authsvc-api conformance: target not reachable: http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\); is the service running there\?$/);
  });

  it("a fixture the service does not hold is a fixture error, exit 2, and no check runs", async () => {
    const base = await serviceWith(() => ({}));
    const { code, out, err } = await conformanceCommand([...base, "--fixtures", fixturesFile("wrong.json", { ...shared, widget: "wgt_000000000000" })]);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain('fixture widget "wgt_000000000000": GET /widgets/{id} answers 404 (the checked application holds no such record)');
  });

  it("a 500 is reported with its X-Request-Id", async () => {
    const base = await serviceWith(() => ({
      readWebhook: () => {
        throw new Error("the webhook table is gone");
      },
    }));
    const { code, out } = await conformanceCommand([...base, "--fixtures", fixturesFile("plain.json", shared)]);
    expect(code).toBe(1);
    expect(out).toMatch(
      /FAIL  readWebhook: workflow webhooks-list-read-history, step read\n\s+GET \S+\/webhooks\/whk_\w+ → 500 \(X-Request-Id: [0-9a-f-]{36}\): success criteria check/,
    );
  }, 240_000);

  it("a 500 for an answer the service's own response validation refused names the cause: where and which rule, on its steps and checks", async () => {
    const base = await serviceWith((real) => ({
      readWebhook: async (input) => {
        const answer = (await real.readWebhook(input)) as { result: { url: string } };
        return { ...answer, result: { ...answer.result, url: "not a URI" } } as never;
      },
      // The reports' page without its number: what the TypeScript checks of the list judge.
      findEncryptionReports: async (input) => {
        const { meta, ...answer } = (await real.findEncryptionReports(input)) as { meta: { current_page?: number } };
        const { current_page: _page, ...rest } = meta;
        return { ...answer, meta: rest } as never;
      },
    }));
    const { code, out } = await conformanceCommand([...base, "--fixtures", fixturesFile("plain.json", shared)]);
    expect(code).toBe(1);
    const cause = `invalid_response: The service's answer does not match its contract (response validation, a fault of the service, not of the request): at /result/url: must match format "uri".`;
    expect(out).toMatch(
      new RegExp(
        `FAIL  readWebhook: workflow webhooks-list-read-history, step read\\n +GET \\S+\\/webhooks\\/whk_\\w+ → 500 \\(X-Request-Id: [0-9a-f-]{36}\\): ${escapeRegExp(cause)}`,
      ),
    );
    // A check of the TypeScript suite: its status line quotes the cause, not the start of the body.
    const pageCause = cause.replace('at /result/url: must match format "uri"', "at /meta/current_page: must have required property 'current_page'");
    expect(out).toMatch(new RegExp(`\\nFAIL  findEncryptionReports: [^\\n]+\\n +status: expected 200, got 500 \\(GET \\S+: ${escapeRegExp(pageCause)}`));
    expect(out).not.toContain("An unexpected error occurred");
  }, 240_000);

  it("an operation not implemented yet (a stub's 501) fails its steps and checks by status, its body judged by the 501's own schema, and says --skip-not-implemented skips them", async () => {
    const base = await serviceWith(() => ({
      readWebhook: () => {
        throw new ApiProblem("not_implemented", "GET /webhooks/{id} is not implemented yet.");
      },
    }));
    const { code, out } = await conformanceCommand([...base, "--fixtures", fixturesFile("plain.json", shared)]);
    expect(code).toBe(1);
    const hint =
      "the documented 501 not_implemented: the target does not implement this operation yet (--skip-not-implemented skips such checks and steps until it does)";
    expect(out).toMatch(
      new RegExp(
        `FAIL  readWebhook: workflow webhooks-list-read-history, step read\\n\\s+GET \\S+\\/webhooks\\/whk_\\w+ → 501 \\(X-Request-Id: [0-9a-f-]{36}\\): ${escapeRegExp(hint)}; success criteria check`,
      ),
    );
    expect(out).toMatch(
      new RegExp(
        `\\nFAIL  readWebhook: 404 problem for an unknown id\\n +status: expected 404, got 501 \\(GET \\S+\\/webhooks\\/whk_\\w+: ${escapeRegExp(hint)}; X-Request-Id: `,
      ),
    );
    // NotImplementedProblem's `code` is `not_implemented`, which Problem's list does not hold.
    expect(out).not.toContain("response schema");
  }, 240_000);

  it("--skip-not-implemented: the stub's checks and steps are skipped with the reason, the rest pass; --fail-on-skip still fails", async () => {
    const base = await serviceWith(() => ({
      readWebhook: () => {
        throw new ApiProblem("not_implemented", "GET /webhooks/{id} is not implemented yet.");
      },
    }));
    const args = [...base, "--fixtures", fixturesFile("plain.json", shared), "--skip-not-implemented"];
    const { code, out } = await conformanceCommand(args);
    expect(out.split("\n").filter((line) => line.startsWith("FAIL"))).toEqual([]);
    const skipped = out.split("\n").filter((line) => line.startsWith("SKIP") && line.includes("readWebhook"));
    expect(skipped).toContain("SKIP  readWebhook: workflow webhooks-list-read-history, step read");
    expect(out).toMatch(/\n {2}skipped \d+: not implemented by the target: answered 501 not_implemented \(--skip-not-implemented\)\n/);
    // Its 401 check never reaches the handler, so it still runs and passes.
    expect(out).toMatch(/\nPASS +readWebhook: 401 problem without credentials/);
    expect(out).toMatch(/result: PASS: 0 failed, \d+ skipped/);
    expect(code).toBe(0);
    expect((await conformanceCommand([...args, "--fail-on-skip"])).code).toBe(1);
  }, 240_000);

  it("--skip-not-implemented never skips a request without the target's own credentials: a service answering 501 before any credential check fails the 401 checks", async () => {
    const problem = JSON.stringify({
      type: "https://api.authsvc.example/problems/not_implemented",
      title: "Not implemented",
      status: 501,
      code: "not_implemented",
      detail: "Not yet.",
      instance: "/v1",
    });
    const stubEverywhere = createServer((_req, res) => res.writeHead(501, { "content-type": "application/problem+json" }).end(problem));
    await new Promise<void>((resolve) => stubEverywhere.listen(0, "127.0.0.1", resolve));
    servers.push({ close: () => new Promise<void>((resolve) => stubEverywhere.close(() => resolve())) } as RunningServer);
    const url = `http://127.0.0.1:${(stubEverywhere.address() as AddressInfo).port}/v1`;
    const { code, out } = await conformanceCommand(["--base-url", url, "--api-key", appA.apiKey, "--api-secret", appA.apiSecret, "--skip-not-implemented"]);
    expect(code).toBe(1);
    const failed = out.split("\n").filter((line) => line.startsWith("FAIL"));
    expect(failed).toContain("FAIL  readWidget: 401 problem without credentials");
    expect(failed.filter((line) => /workflow/.test(line))).toEqual([]);
  }, 240_000);
});
