// One of the multi-process test's processes (multi-process.test.ts): its own pool on the
// shared database, `count` provider updates at once and `hits` rate-limit hits on one key;
// prints one JSON line: the answer of each update (ok or a problem code) and the hit counts.
import { ApiProblem } from "../../server/problems.js";
import { createPostgresStore } from "../../server/store/postgres/index.js";
import { PostgresRateLimitStore } from "../../server/store/postgres/rate-limit-store.js";

const [url, applicationId, worker, count, hits] = process.argv.slice(2) as [string, string, string, string, string];
const store = createPostgresStore({ connectionString: url, max: 5 });
const limiter = new PostgresRateLimitStore(store.pool, "multi:");
limiter.init({ windowMs: 60_000 } as never);
const ids = (await store.smsProviders(applicationId)).map((p) => p.id);
const bodies = [{ sort: "UP" as const }, { sort: "DOWN" as const }, { is_default: true }, { name: `Worker ${worker}` }];
const answers = await Promise.all(
  Array.from({ length: Number(count) }, (_, i) =>
    store.updateSmsProvider(applicationId, ids[(i * 5 + Number(worker)) % ids.length]!, bodies[(i + Number(worker)) % bodies.length]!).then(
      () => "ok",
      (error: unknown) => (error instanceof ApiProblem ? `${error.status} ${error.code}` : `unexpected ${String(error)}`),
    ),
  ),
);
const counts = await Promise.all(Array.from({ length: Number(hits) }, () => limiter.increment("key:multi").then((r) => r.totalHits)));
await store.close();
console.log(JSON.stringify({ answers, counts }));
