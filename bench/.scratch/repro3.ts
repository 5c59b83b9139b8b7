import { pino } from "pino";
import { startServer } from "../../server/listen.ts";
import { rawRequest } from "../../test/bad-input/raw-http.ts";
const s = await startServer({ rateLimit: false, logger: pino({ level: "error" }) });
const r = await rawRequest(new URL(s.url), { method: "PUT", target: "/v1/sms/providers/sms_9e4a1d7c3b2f", headers: [["authorization", "Bearer ak_live_acme_4f9e2b7c1d8a6e3f"], ["content-type", "application/json"], ["content-encoding", "gzip"]], body: '{"name":"x"}' });
console.log(r.status, r.body.slice(0, 200));
await s.close();
