// Target (b): Express 5 with the same route and body, no validation, no auth.
import express from "express";
import type { AddressInfo } from "node:net";
import { serveForBench } from "../lib/child.js";
import { widgetBody } from "../lib/fixtures.js";

await serveForBench(async () => {
  const app = express();
  app.disable("x-powered-by");
  app.get("/v1/widgets/:id", (_req, res) => {
    res.json(widgetBody);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
});
