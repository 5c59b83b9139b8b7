// The demo credentials as the tests use them, read from the server's demo seed: application
// A owns the document's examples, B is another application (for the isolation checks).
import { loadSeed } from "../../server/seed/load.js";
import type { SeedApplication } from "../../server/seed/types.js";
import { successExample } from "./document.js";

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

function clearCredentials(app: SeedApplication): Credentials {
  const credential = app.credentials.find((c) => "api_key" in c && "api_secret" in c) as
    | { api_key: string; api_secret: string }
    | undefined;
  if (!credential) throw new Error(`the demo seed has no clear-text credentials for ${app.id}`);
  return { apiKey: credential.api_key, apiSecret: credential.api_secret };
}

export function demoCredentials(): { a: Credentials; b: Credentials } {
  const exampleOwner = (successExample("readWidget") as { result: { application_id: string } }).result.application_id;
  const applications = loadSeed().applications;
  const a = applications.find((app) => app.id === exampleOwner);
  const b = applications.find((app) => app.id !== exampleOwner);
  if (!a || !b) throw new Error("the demo seed needs the examples' application and a second one");
  return { a: clearCredentials(a), b: clearCredentials(b) };
}
