// The mock's `Prefer: code=` switch reads a whole token, not a prefix of one: `code=4040` is
// no request for a 404, and neither is `xcode=404`. A mutant that dropped the pattern's word
// boundary (or its leading separator) served those as 404 and survived every other test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { appA } from "../support/demo.js";

let mock: RunningMock;
beforeAll(async () => void (mock = await startMock()));
afterAll(() => mock?.close());

const readWidget = (prefer: string) => fetch(`${mock.url}/widgets/wgt_5a3c8e1f7b92`, { headers: { authorization: `Bearer ${appA.apiKey}`, prefer } });

describe("Prefer: code= on the mock", () => {
  it("code=404 picks the documented 404", async () => {
    expect((await readWidget("code=404")).status).toBe(404);
  });

  // Not a 404; whether such a value is ignored (200) or refused (400) is the mock's policy.
  it.each(["code=4040", "code=404x", "xcode=404", "barcode=404"])("%s is not a request for the 404", async (prefer) => {
    const response = await readWidget(prefer);
    await response.body?.cancel();
    expect(response.status).not.toBe(404);
    expect([200, 400]).toContain(response.status);
  });
});
