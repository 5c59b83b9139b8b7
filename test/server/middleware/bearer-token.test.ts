// `Authorization: Bearer <token>` is the whole header: the scheme, spaces, one token,
// optional trailing spaces, and nothing after. A valid key followed by anything else is no
// credential. A mutant that dropped the pattern's end anchor accepted the key with trailing
// junk and survived the authentication matrix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appA } from "../../support/demo.js";
import { startServer, type RunningServer } from "../../support/server.js";

let server: RunningServer;
beforeAll(async () => void (server = await startServer({ rateLimit: false })));
afterAll(() => server.close());

const readWidget = (authorization: string) => fetch(`${server.url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization } });

describe("the Bearer header", () => {
  it.each([`Bearer ${appA.apiKey}`, `bearer  ${appA.apiKey}`, `Bearer ${appA.apiKey}  `])("%j authenticates", async (authorization) => {
    const response = await readWidget(authorization);
    await response.body?.cancel();
    expect(response.status).toBe(200);
  });

  it.each([
    `Bearer ${appA.apiKey} junk`,
    `Bearer ${appA.apiKey} ${appA.apiKey}`,
    `Bearer ${appA.apiKey},x`,
    // Nothing before the scheme either.
    `XBearer ${appA.apiKey}`,
    `Basic Bearer ${appA.apiKey}`,
  ])("%j is refused with 401", async (authorization) => {
    const response = await readWidget(authorization);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect(await response.json()).toMatchObject({ code: "unauthorized" });
  });
});

describe("the other scheme's headers beside a bearer token", () => {
  // Either header alone is refused: a credential is never silently ignored.
  it.each<Record<string, string>>([{ "x-api-key": appA.apiKey }, { "x-api-secret": appA.apiSecret }])(
    "%j: 401 saying which scheme the operation takes",
    async (other) => {
      const response = await fetch(`${server.url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: `Bearer ${appA.apiKey}`, ...other } });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({
        code: "unauthorized",
        detail: "This operation takes `Authorization: Bearer <API key>`, not X-Api-Key/X-Api-Secret.",
      });
    },
  );

  it("X-Api-Key alone: the same", async () => {
    const response = await fetch(`${server.url}/widgets/wgt_5a3c8e1f7b92`, { headers: { "x-api-key": appA.apiKey } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ detail: "This operation takes `Authorization: Bearer <API key>`, not X-Api-Key/X-Api-Secret." });
  });
});
