// The authenticator is asynchronous (a database may sit behind it) and can fail. A failure
// is not a verdict on the credentials: it is never answered as 401, and the detail carries
// nothing of the cause (which may name a host or a query).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSeed } from "../../../server/seed/load.js";
import { createStore } from "../../../server/store/memory.js";
import type { Store } from "../../../server/domain/index.js";
import { unavailableProblem } from "../../../server/store/postgres/unavailable.js";
import { appA } from "../../support/demo.js";
import { credentialsFor, validRequest } from "../../support/requests.js";
import { problemOf, send, startHarness, type Harness } from "./harness.js";

const cause = "connect ECONNREFUSED db-secret-host.internal:5432";

/** The demo store whose credential lookups reject, as a store whose database is down would. */
function storeWithFailingAuthenticator(): Store {
  const store = createStore(loadSeed());
  const down = async () => {
    throw new Error(cause);
  };
  return { ...store, authenticateBearer: down, authenticateKeyPair: down };
}

describe("an authenticator that fails", () => {
  let server: Harness;
  beforeAll(async () => {
    server = await startHarness({ store: storeWithFailingAuthenticator(), rateLimit: false });
  });
  afterAll(() => server?.close());

  it.each(["readWidget", "createNotification"] as const)("%s: a 500 problem, not a 401, without the cause", async (operationId) => {
    const res = await send(server, validRequest(operationId), credentialsFor(operationId, appA));
    expect(res.status).toBe(500);
    const problem = await problemOf(res);
    expect(problem.code).toBe("internal_error");
    const text = JSON.stringify(problem);
    expect(text).not.toContain("db-secret-host");
    expect(text).not.toContain("ECONNREFUSED");
    // The log keeps what the answer leaves out: what failed, and its cause.
    const logged = server.logs.findLast((line) => line.msg === "unexpected error");
    expect(logged?.err).toMatchObject({ type: "AuthenticatorFailed", message: "The credentials could not be checked.", cause: { type: "Error", message: cause } });
  });

  it("still answers 401 without credentials (the authenticator is not asked)", async () => {
    const res = await send(server, validRequest("readWidget"));
    expect(res.status).toBe(401);
  });
});

describe("an authenticator that answers with the store's own problem", () => {
  // The PostgreSQL store's 503 while its database is out of reach: answered as it is.
  let server: Harness;
  beforeAll(async () => {
    const store = createStore(loadSeed());
    const unavailable = async () => {
      throw unavailableProblem();
    };
    server = await startHarness({ store: { ...store, authenticateBearer: unavailable, authenticateKeyPair: unavailable }, rateLimit: false });
  });
  afterAll(() => server?.close());

  it.each(["readWidget", "createNotification"] as const)("%s: the store's 503 with its Retry-After", async (operationId) => {
    const res = await send(server, validRequest(operationId), credentialsFor(operationId, appA));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(unavailableProblem().headers!["Retry-After"]);
    expect(await problemOf(res)).toMatchObject({ code: "service_unavailable", detail: unavailableProblem().detail });
  });
});
