// The run's bound on one answer holds whatever the garbage collector does: a body that stalls
// after its headers is cut at --request-timeout even when the collector runs while it waits
// (undici links a copy of a Request to its source's signal weakly, so a deadline that reaches
// the body only through such copies is lost once one is collected).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedFetch } from "../../conformance/bounded-fetch.js";
import { HostileAnswer } from "../../conformance/errors.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

// Headers, 9 of the 100 bytes it declares, then nothing.
const server = createServer((request, response) => {
  request.resume();
  response.writeHead(200, { "content-type": "application/json", "content-length": "100" }).write('{"type":"');
});
let url: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/widgets/wgt_1`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("boundedFetch", () => {
  it("cuts a stalled body at the timeout while the garbage collector runs", async () => {
    const collecting = setInterval(gc, 20);
    try {
      const outcome = await Promise.race([
        boundedFetch(new Request(url), { timeoutMs: 1000, maxBodyBytes: 65_536 }).then(
          () => "answered",
          (error: unknown) => error,
        ),
        // Far past the bound: a cut body settles long before, a lost deadline never does.
        new Promise((resolve) => setTimeout(() => resolve("still waiting after 10 s"), 10_000)),
      ]);
      expect(outcome).toBeInstanceOf(HostileAnswer);
      expect((outcome as Error).message).toBe(`GET ${url} → 200: body not complete within 1000 ms (9 bytes received; --request-timeout)`);
    } finally {
      clearInterval(collecting);
    }
  }, 20_000);
});
