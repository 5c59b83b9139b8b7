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

/** A seed file's records as they are (default: the demo seed); the seed's own validator is the server's. */
export function readSeed(seedFile: string | URL = demoSeedUrl): Seed {
  return JSON.parse(readFileSync(seedFile, "utf8")) as Seed;
}

/** An authenticator over the credentials of a seed. */
export function seedAuthenticator(seed: Seed): Authenticator {
  const table = new CredentialTable();
  for (const app of seed.applications) {
    for (const credential of app.credentials) table.add(credential, { applicationId: app.id, organizationId: app.organization_id });
  }
  return {
    authenticateBearer: async (apiKey) => table.bearer(apiKey),
    authenticateKeyPair: async (apiKey, apiSecret) => table.keyPair(apiKey, apiSecret),
  };
}
