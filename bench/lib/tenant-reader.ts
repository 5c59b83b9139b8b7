// The child of bench/lib/tenants.ts's `startReader`: application B reading one webhook over 2
// keep-alive connections from 127.0.0.2, in a process of its own so that the load generator's
// work (autocannon parsing another tenant's answers) never delays B's clock. It reads until
// told to stop; on "samples" it sends every read so far: when it started (epoch ms), how long
// it took (ms) and its status (or the error).
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { keyB, webhookB, type Sample } from "./tenants.js";

const port = Number(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: 2 });
const samples: Sample[] = [];
let stopped = false;

const one = () =>
  new Promise<void>((resolve) => {
    const at = Date.now();
    const t0 = performance.now();
    const done = (status: string) => {
      samples.push([at, performance.now() - t0, status]);
      resolve();
    };
    const req = request(
      { host: "127.0.0.1", port, localAddress: "127.0.0.2", path: `/v1/webhooks/${webhookB}`, agent, headers: { authorization: `Bearer ${keyB}` }, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on("end", () => done(String(res.statusCode)));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (error) => done(error.message));
    req.end();
  });

const loops = [0, 1].map(async () => {
  while (!stopped) await one();
});
process.on("message", (message) => {
  if (message === "samples") process.send!(samples);
  if (message === "stop") {
    stopped = true;
    void Promise.all(loops).then(() => {
      agent.destroy();
      process.send!(samples, () => process.exit(0));
    });
  }
});
process.send!("reading");
