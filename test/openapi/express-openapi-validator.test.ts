// The bundle loads in express-openapi-validator 5.6.2 (what the reference server uses), and
// the validator enforces it: a valid request passes through, an invalid one is 400, and a
// response built from the document's own example passes response validation.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express, { type NextFunction, type Request, type Response } from "express";
import OpenApiValidator from "express-openapi-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePath, copy, deref, doc, operation } from "./document.js";

const widgetExample = deref(Object.values(deref(operation("GET", "/widgets/{id}").responses["200"]).content["application/json"].examples)[0]).value;

let server: Server;
let base: string;
let handled = 0;

beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use(
    OpenApiValidator.middleware({
      apiSpec: bundlePath.pathname,
      validateRequests: true,
      validateResponses: true,
      validateSecurity: true, // presence only: no scheme handlers here
    }),
  );
  app.get("/v1/widgets/:id", (_req: Request, res: Response) => {
    handled++;
    res.json(copy(widgetExample));
  });
  app.get("/v1/reports/encryption", (_req: Request, res: Response) => {
    handled++;
    res.json({ type: "api.application.reports.encryption", result: [], meta: { total_count: 0, page_count: 0, current_count: 0, current_page: 1 } });
  });
  app.use((err: { status?: number; message: string }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(err.status ?? 500).json({ status: err.status ?? 500, message: err.message });
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => (server ? server.close((e) => (e ? reject(e) : resolve())) : resolve()));
});

describe("express-openapi-validator over the bundle", () => {
  it("passes a valid request through and validates the example response", async () => {
    const response = await fetch(`${base}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: "Bearer ak_test" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(widgetExample);
    expect(handled).toBe(1);
  });

  it("refuses a request outside the schema with 400 before the handler", async () => {
    const response = await fetch(`${base}/reports/encryption?limit=101`, { headers: { authorization: "Bearer ak_test" } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/limit/);
    expect(handled).toBe(1);
  });

  it("refuses a request without credentials with 401", async () => {
    const response = await fetch(`${base}/reports/encryption`);
    expect(response.status).toBe(401);
    expect(handled).toBe(1);
  });

  it("refuses a body with an unknown field (each variant of the union is closed)", async () => {
    // Routed only to reach validation: no handler is mounted, so 400 must come from the validator.
    const body = { type: "SIMPLE", title: "T", content: "C", broadcast: true, extra: 1 };
    const response = await fetch(`${base}/notifications`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k", "x-api-secret": "s" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(400);
  });

  it("refuses a response that breaks the document (response validation is live)", async () => {
    const app = express();
    app.use(OpenApiValidator.middleware({ apiSpec: copy(doc), validateRequests: true, validateResponses: true }));
    app.get("/v1/widgets/:id", (_req: Request, res: Response) => {
      res.json({ ...copy(widgetExample), type: "api.application.widget.wrong" });
    });
    app.use((err: { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
      res.status(err.status ?? 500).end();
    });
    const s = await new Promise<Server>((resolve) => {
      const l = app.listen(0, "127.0.0.1", () => resolve(l));
    });
    try {
      const port = (s.address() as AddressInfo).port;
      const response = await fetch(`http://127.0.0.1:${port}/v1/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: "Bearer x" } });
      expect(response.status).toBe(500);
    } finally {
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });
});
