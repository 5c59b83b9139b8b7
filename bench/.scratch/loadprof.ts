import { loadSeed } from "../../server/seed/load.ts";
import { createStore } from "../../server/store/index.ts";
import { generateReports } from "../scale/generate.ts";
const store = createStore(loadSeed());
const recs = generateReports({ count: 300000, applicationId: "app_8c1f5e20d9b4", organizationId: "org_4b7d2e91c0a3" });
const { Session } = await import("node:inspector/promises");
const s = new Session(); s.connect(); await s.post("Profiler.enable"); await s.post("Profiler.start");
const t = performance.now();
store.addReports("app_8c1f5e20d9b4", recs);
console.log("add ms", performance.now() - t);
const { profile } = await s.post("Profiler.stop");
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
const self = new Map<string, number>();
for (const n of profile.nodes as any[]) { const k = `${n.callFrame.functionName} ${n.callFrame.url.split("/work/main/").pop()}:${n.callFrame.lineNumber + 1}`; self.set(k, (self.get(k) ?? 0) + n.hitCount); }
const total = profile.samples.length;
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log((v / total * 100).toFixed(1) + "%", k);
