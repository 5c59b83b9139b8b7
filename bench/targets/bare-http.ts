// Target (a), the floor: bare node:http answering the widget body, no framework, no checks.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { serveForBench } from "../lib/child.js";
import { widgetBody } from "../lib/fixtures.js";

await serveForBench(async () => {
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url?.startsWith("/v1/widgets/")) {
      const body = JSON.stringify(widgetBody);
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
      res.end(body);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
});
