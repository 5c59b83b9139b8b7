// Target (b2): Express 5 + express-openapi-validator validating requests only (security
// presence included) over the bundled document, with a trivial handler for the widget route.
// This is the cost of validation alone, the yardstick of the server's CPU per request.
import express, { type ErrorRequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import type { AddressInfo } from "node:net";
import { serveForBench } from "../lib/child.js";
import { documentPath, widgetBody } from "../lib/fixtures.js";

await serveForBench(async () => {
  const app = express();
  app.disable("x-powered-by");
  app.use(express.json({ limit: "100kb" }));
  app.use(OpenApiValidator.middleware({ apiSpec: documentPath, validateRequests: true, validateResponses: false }));
  app.get("/v1/widgets/:id", (_req, res) => {
    res.json(widgetBody);
  });
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    res.status(err.status ?? 500).json({ message: err.message });
  };
  app.use(onError);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
});
