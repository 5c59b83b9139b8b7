// Run in its own process with --expose-gc by credentials.test.ts: builds a store from a seed
// whose key, secret and e-mail auth exist only as bytes here, drops every other reference,
// and writes a heap snapshot; the test then searches the snapshot for the clear values.
import { randomBytes } from "node:crypto";
import { writeHeapSnapshot } from "node:v8";
import { loadSeed } from "../../../server/seed/load.js";
import { createStore } from "../../../server/store/memory.js";
import type { Store } from "../../../server/domain/index.js";

const [snapshotFile] = process.argv.slice(2);
const bytes = { key: randomBytes(16), secret: randomBytes(16), mail: randomBytes(16) };

async function build(): Promise<Store> {
  const seed = loadSeed();
  const app = seed.applications[0]!;
  const key = `ak_probe_${bytes.key.toString("hex")}`;
  const secret = `as_probe_${bytes.secret.toString("hex")}`;
  app.credentials = [{ api_key: key, api_secret: secret }];
  app.email_transport = { ...app.email_transport!, type: "SENDGRID", auth: { api_key: `SG.probe_${bytes.mail.toString("hex")}` } };
  const store = createStore(seed);
  if ((await store.authenticateKeyPair(key, secret))?.applicationId !== app.id) throw new Error("probe store does not authenticate");
  await store.saveEmailTransport(
    app.id,
    {
      type: "SES",
      email_from: "a@b.example",
      email_admin: "a@b.example",
      auth: { region: "eu-west-1", accessKeyId: `AKIA${bytes.mail.toString("hex").toUpperCase()}`, secretAccessKey: `probe/${bytes.mail.toString("hex")}` },
    },
    new Date(),
  );
  return store;
}

const store = await build();
(globalThis as { gc?: () => void }).gc!();
writeHeapSnapshot(snapshotFile);
// Printed after the snapshot, so the values are not in it; the store stays alive until here.
console.log(JSON.stringify({ hex: Object.values(bytes).map((b) => b.toString("hex")), held: (await store.applications()).length }));
