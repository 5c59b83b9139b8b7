// Who the mock lets in: the applications of the demo seed, by the same credential table the
// reference server's store uses. The document's examples are those applications' records,
// so the keys that read the examples on the server read them on the mock; any other key is
// a 401, as on the server. Only the credentials are read (not the whole seed through its
// validator, which costs start-up time and checks records the mock never serves).
import { readFileSync } from "node:fs";
import type { Authenticator } from "../server/middleware/security.js";
import type { Seed } from "../server/seed/types.js";
import { CredentialTable } from "../server/store/credentials.js";

/** The reference server's demo seed (copied beside the server's code by the build). */
export const demoSeedUrl = new URL("../server/seed/demo.json", import.meta.url);

/** An authenticator over the credentials of a seed file (default: the demo seed). */
export function seedAuthenticator(seedFile: string | URL = demoSeedUrl): Authenticator {
  const seed = JSON.parse(readFileSync(seedFile, "utf8")) as Seed;
  const table = new CredentialTable();
  for (const app of seed.applications) {
    for (const credential of app.credentials) table.add(credential, { applicationId: app.id, organizationId: app.organization_id });
  }
  return {
    authenticateBearer: async (apiKey) => table.bearer(apiKey),
    authenticateKeyPair: async (apiKey, apiSecret) => table.keyPair(apiKey, apiSecret),
  };
}
