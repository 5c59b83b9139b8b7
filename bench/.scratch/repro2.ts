import { pino } from "pino";
import { startServer } from "../../server/listen.ts";
const s = await startServer({ rateLimit: false, logger: pino({ level: "error" }) });
const h = { authorization: "Bearer ak_live_acme_4f9e2b7c1d8a6e3f" };
for (const p of ["/V1/widgets/wgt_5a3c8e1f7b92", "/v1/webhooks?page=Infinity"]) { const r = await fetch(new URL(s.url).origin + p, { headers: h }); console.log(p, r.status, (await r.text()).slice(0, 200)); }
await s.close();
