// The conformance suite against the reference server with the demo seed: a stateful target,
// so every check runs, the isolation checks with application B's key.
import { startServer } from "../../server/listen.js";
import { loadSeed } from "../../server/seed/load.js";
import type { SeedApplication } from "../../server/seed/types.js";
import { successExample } from "./document.js";
import { conformanceSuite } from "./vitest-suite.js";

/** The demo credentials, from the seed: A owns the document's examples, B is another application. */
function demoApplications(): { a: SeedApplication; b: SeedApplication } {
  const exampleOwner = (successExample("readWidget") as { result: { application_id: string } }).result.application_id;
  const applications = loadSeed().applications;
  const a = applications.find((app) => app.id === exampleOwner);
  const b = applications.find((app) => app.id !== exampleOwner);
  if (!a || !b) throw new Error("the demo seed needs the examples' application and a second one");
  return { a, b };
}

function clearCredentials(app: SeedApplication): { apiKey: string; apiSecret: string } {
  const credential = app.credentials.find((c) => "api_key" in c && "api_secret" in c) as
    | { api_key: string; api_secret: string }
    | undefined;
  if (!credential) throw new Error(`the demo seed has no clear-text credentials for ${app.id}`);
  return { apiKey: credential.api_key, apiSecret: credential.api_secret };
}

conformanceSuite("server", async () => {
  const { a, b } = demoApplications();
  // The suite sends far more requests per key than the default limit allows in a minute.
  const server = await startServer({ rateLimit: false });
  return {
    target: { name: "server", baseUrl: server.url, ...clearCredentials(a), stateful: true, otherApplication: clearCredentials(b) },
    close: server.close,
  };
});
