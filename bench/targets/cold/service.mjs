// The child of bench/cold-start.ts, plain JavaScript run by `node` as a consumer's service
// runs (no tsx): COLD_MODE picks what it serves, COLD_SPEC names a JSON file with the built
// server package's directory and each operation's success answer. It prints
// `listening <origin>` once it takes connections.
//   bare   Express with the one widget route (the baseline)
//   listen createContractApp served by the package's listen() (it waits for ready())
//   lazy   the same app on Node's own createServer, nothing compiled before the first request
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const mode = process.env.COLD_MODE;
const spec = JSON.parse(readFileSync(process.env.COLD_SPEC, "utf8"));
const print = (server) => console.log(`listening http://127.0.0.1:${server.address().port}`);

if (mode === "bare") {
  const { default: express } = await import("express");
  const app = express();
  app.disable("x-powered-by");
  const widget = spec.operations.find((operation) => operation.operationId === "readWidget").body;
  app.get("/v1/widgets/:id", (_req, res) => res.json(widget));
  const server = app.listen(0, "127.0.0.1", () => print(server));
} else {
  const entry = await import(`${spec.packageDir}/server/contract-layer/index.js`);
  const caller = { applicationId: "app_bench", organizationId: "org_bench" };
  const handlers = Object.fromEntries(
    spec.operations.map(({ operationId, status, body }) => [operationId, () => (status === 200 ? structuredClone(body) : { status, body: structuredClone(body) })]),
  );
  const app = entry.createContractApp({
    handlers,
    authenticate: { authenticateBearer: async () => caller, authenticateKeyPair: async () => caller },
    rateLimit: false,
    failedAuthLimit: false,
  });
  if (mode === "listen") {
    const listening = await entry.listen(app, { port: 0 });
    print(listening.server);
  } else {
    const server = createServer(app).listen(0, "127.0.0.1", () => print(server));
  }
}
