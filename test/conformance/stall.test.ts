// A target that stops answering is reported after a few request timeouts, not one per
// request left (conformance/stall.ts): once requests to three different operations in a
// row got no complete answer, the run sends nothing more, and every step and check left is
// skipped with that reason. One or two hung operations do not stop it. Shown on the guard
// itself, and on `authsvc-api conformance` against targets that never answer or never end
// their answers: the target gets three requests, the report comes at once after the third.
// (At the defaults, 30 s per request: test/conformance/hostile-matrix.ts measures it.)
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { StallGuard } from "../../conformance/stall.js";
import { conformanceCommand } from "./run-cli.js";

const base = "http://127.0.0.1:9/v1";
const request = (method: string, path: string) => new Request(`${base}${path}`, { method });

describe("the stall guard", () => {
  it("stops the run when three different operations in a row get no complete answer, naming them", () => {
    const guard = new StallGuard(base, 30_000);
    guard.silent(request("GET", "/reports/encryption?limit=10"));
    guard.silent(request("GET", "/widgets/wgt_1"));
    expect(guard.reason).toBeUndefined();
    guard.silent(request("PUT", "/sms/providers/sms_1"));
    expect(guard.reason).toBe(
      "not run: the target stopped answering (GET /reports/encryption, GET /widgets/{id} and PUT /sms/providers/{id} got no complete answer within 30000 ms, one after the other, and nothing answered in between; --request-timeout)",
    );
  });

  it("goes on while only one or two operations hang, or anything answers in between", () => {
    const guard = new StallGuard(base, 30_000);
    for (const id of ["wgt_1", "wgt_2", "wgt_3", "wgt_4"]) guard.silent(request("GET", `/widgets/${id}`));
    guard.silent(request("GET", "/users/usr_1/activity"));
    guard.answered();
    guard.silent(request("GET", "/webhooks"));
    guard.silent(request("GET", "/webhooks/whk_1"));
    expect(guard.reason).toBeUndefined();
    // A path no operation has is named as requested.
    guard.silent(request("GET", "/nowhere"));
    expect(guard.reason).toContain("GET /webhooks, GET /webhooks/{id} and GET /v1/nowhere got no complete answer");
  });
});

/** A target that accepts every connection and never finishes an answer: no headers, or headers and an endless body. */
async function silentTarget(kind: "no headers" | "endless body"): Promise<{ url: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((incoming, outgoing) => {
    requests.push(`${incoming.method} ${incoming.url}`);
    incoming.resume();
    if (kind === "no headers") return;
    outgoing.writeHead(200, { "content-type": "application/json" }).write("[");
    const timer = setInterval(() => outgoing.write("0,"), 10);
    outgoing.on("close", () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests, server };
}

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

describe("authsvc-api conformance against a target that stops answering", () => {
  it.each(["no headers", "endless body"] as const)(
    "%s: three requests, two FAIL lines, the rest skipped naming why, the report at once after",
    async (kind) => {
      const target = await silentTarget(kind);
      servers.push(target.server);
      const timeoutMs = 1500;
      const { code, out, printed } = await conformanceCommand(["--base-url", target.url, "--api-key", "ak_any", "--request-timeout", String(timeoutMs)]);
      expect(code).toBe(1);
      // The preflight's probe, then the first step of two workflows.
      expect(target.requests).toHaveLength(3);
      const lines = out.split("\n");
      const verdicts = lines.filter((line) => /^(PASS|FAIL|SKIP) {2}/.test(line));
      expect(verdicts.filter((line) => line.startsWith("FAIL"))).toHaveLength(2);
      expect(verdicts.filter((line) => line.startsWith("PASS"))).toEqual([]);
      const reason =
        /not run: the target stopped answering \(GET \/reports\/encryption, \S+ \S+ and \S+ \S+ got no complete answer within 1500 ms, one after the other, and nothing answered in between; --request-timeout\)/;
      expect(out).toMatch(new RegExp(`\\n {2}skipped \\d+: ${reason.source}\\n`));
      const stalled = Number(new RegExp(`\\n {2}skipped (\\d+): ${reason.source}`).exec(out)![1]);
      // Every check of the TypeScript suite among them: none was sent.
      expect(stalled).toBeGreaterThan(50);
      // After the third silent request, nothing waits: the summary follows the last FAIL line at once.
      const lastFail = printed.findLast((line) => line.text.startsWith("FAIL"))!;
      expect(printed.at(-1)!.at - lastFail.at).toBeLessThan(timeoutMs);
    },
    120_000,
  );
});
