// Credentials per operation, as the introduction's Authentication states them: a bearer
// API key everywhere except POST /notifications, which takes X-Api-Key and X-Api-Secret
// together and nothing else.
import { describe, expect, it } from "vitest";
import { deref, doc, operations } from "./document.js";

describe("security", () => {
  it("declares the bearer scheme and the two API-key headers exactly", () => {
    const schemes = doc.components.securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual(["apiKey", "apiSecret", "bearerAuth"]);
    expect(schemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemes.apiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-Api-Key" });
    expect(schemes.apiSecret).toMatchObject({ type: "apiKey", in: "header", name: "X-Api-Secret" });
  });

  it("takes the bearer key alone on every other operation", () => {
    const bearer = operations().filter((o) => !(o.method === "POST" && o.path === "/notifications"));
    // Every operation but one, whatever their number (adding an operation keeps this green).
    expect(bearer).toHaveLength(operations().length - 1);
    for (const { method, path, op } of bearer) {
      // Stated per operation, not inherited, so a change of the root default cannot move it.
      expect(op.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
    }
  });

  it("takes X-Api-Key and X-Api-Secret together (one requirement) on POST /notifications, no bearer", () => {
    const { op } = operations().find((o) => o.method === "POST" && o.path === "/notifications")!;
    // One requirement object holding both schemes means AND; two objects would mean OR.
    expect(op.security).toEqual([{ apiKey: [], apiSecret: [] }]);
    expect(JSON.stringify(op.security)).not.toContain("bearerAuth");
  });

  it("never makes an operation public (no empty requirement)", () => {
    for (const { op } of operations()) {
      // `security: []` is no requirement at all: public.
      expect(op.security.length, op.operationId).toBeGreaterThan(0);
      for (const requirement of op.security) expect(Object.keys(requirement).length).toBeGreaterThan(0);
    }
  });

  it("documents the WWW-Authenticate header on the 401 of every bearer operation, and only there", () => {
    for (const { method, path, op } of operations()) {
      const headers = Object.keys(deref(op.responses["401"]).headers);
      const bearer = op.security.some((requirement: object) => "bearerAuth" in requirement);
      expect(headers.includes("WWW-Authenticate"), `${method} ${path}`).toBe(bearer);
    }
  });
});
