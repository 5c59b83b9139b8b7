// The mock's check of undeclared query parameters, on the bundled document.
import { describe, expect, it } from "vitest";
import { unknownQueryCheck } from "../../mock/unknown-query.js";
import { basePathOf, loadDocument } from "../../server/http/document.js";

const document = loadDocument();
const check = unknownQueryCheck(document, basePathOf(document));
const bearer = { authorization: "Bearer any" };
const keyPair = { "x-api-key": "k", "x-api-secret": "s" };

describe("unknownQueryCheck", () => {
  it("passes requests with no query, or only declared parameters and Prism's switches", () => {
    expect(check("GET", "/v1/webhooks", bearer)).toBeUndefined();
    expect(check("GET", "/v1/webhooks?limit=20&page=2", bearer)).toBeUndefined();
    expect(check("GET", "/v1/widgets/wgt_1?__code=404&__example=a?b&__dynamic=true", bearer)).toBeUndefined();
  });

  it("names the first undeclared parameter, in the request's order", () => {
    expect(check("GET", "/v1/webhooks?limit=20&pgae=2&zzz=1", bearer)).toEqual({ in: "query", name: "pgae", message: "Unknown query parameter 'pgae'" });
    expect(check("POST", "/v1/notifications?dry_run=1", keyPair)).toMatchObject({ name: "dry_run" });
  });

  it("leaves a request without its operation's credentials to the 401", () => {
    expect(check("GET", "/v1/webhooks?pgae=2", {})).toBeUndefined();
    expect(check("POST", "/v1/notifications?dry_run=1", bearer)).toBeUndefined();
  });

  it("leaves paths and methods no operation serves to Prism", () => {
    expect(check("GET", "/v1/nothing?x=1", bearer)).toBeUndefined();
    expect(check("DELETE", "/v1/webhooks?x=1", bearer)).toBeUndefined();
  });
});
