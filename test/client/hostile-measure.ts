// Measures the client against each hostile upstream of hostile.test.ts: outcome, wall time,
// peak RSS and heap (sampled every 5 ms), one case per process so the peaks are the case's
// own. Not a test (no timing is asserted anywhere): run it by hand, on an idle machine:
//   npx tsx test/client/hostile-measure.ts            # every case, a table
//   npx tsx test/client/hostile-measure.ts <case>     # one case, a JSON line
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createApiClient } from "../../client/index.js";
import { httpServer, type Running, streamBytes, tricklingHeaders } from "./hostile-servers.js";

type Case = { server: () => Promise<Running>; call: (baseUrl: string) => Promise<unknown>; other?: Running };

const timeoutMs = 3_000;
const api = (baseUrl: string) => createApiClient({ baseUrl, apiKey: "ak_live_hostile", apiSecret: "as_live_hostile", timeoutMs });
const readWidget = (baseUrl: string) => api(baseUrl).GET("/widgets/{id}", { params: { path: { id: "wgt_5a3c8e1f7b92" } } });
const notify = (baseUrl: string) => api(baseUrl).POST("/notifications", { body: { type: "SIMPLE", title: "Hello", content: "Hi", broadcast: true } });

let other: Running | undefined;
const redirect = (status: number, call: (baseUrl: string) => Promise<unknown>): Case => ({
  server: async () => {
    other = await httpServer((response) => response.writeHead(200, { "content-type": "application/json" }).end('{"stolen":true}'));
    return httpServer((response) => response.writeHead(status, { location: `${other!.baseUrl}/collect` }).end());
  },
  call,
});

const cases: Record<string, Case> = {
  ...Object.fromEntries(
    [301, 302, 303, 307, 308].flatMap((status) => [
      [`${status} GET`, redirect(status, readWidget)],
      [`${status} POST /notifications`, redirect(status, notify)],
    ]),
  ),
  "endless body (1 B/100 ms)": {
    server: () =>
      httpServer((response, { every }) => {
        response.writeHead(200, { "content-type": "application/json" });
        every(100, () => response.write(" "));
      }),
    call: readWidget,
  },
  "stalled body (Content-Length: 100, 1 B sent)": {
    server: () => httpServer((response) => response.writeHead(200, { "content-type": "application/json", "content-length": "100" }).write("{")),
    call: readWidget,
  },
  "headers trickled (1 line/100 ms)": { server: () => tricklingHeaders(100), call: readWidget },
  "1 GB body, chunked": {
    server: () =>
      httpServer((response, { count }) => {
        response.writeHead(200, { "content-type": "application/json" });
        streamBytes(response, 1024 ** 3, count);
      }),
    call: readWidget,
  },
  "1 GB body, Content-Length: 1073741824": {
    server: () =>
      httpServer((response, { count }) => {
        response.writeHead(200, { "content-type": "application/json", "content-length": String(1024 ** 3) });
        streamBytes(response, 1024 ** 3, count);
      }),
    call: readWidget,
  },
};

async function measure(name: string) {
  const server = await cases[name]!.server();
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peakRss = Math.max(peakRss, rss);
    peakHeap = Math.max(peakHeap, heapUsed);
  };
  sample();
  const baseRss = peakRss;
  const sampler = setInterval(sample, 5);
  const started = performance.now();
  const outcome = await cases[name]!.call(server.baseUrl).then(
    (result) => `answered ${(result as { response: Response }).response.status}`,
    (error: Error & { status?: number }) => `${error.name}: ${error.message}`,
  );
  const wallMs = Math.round(performance.now() - started);
  clearInterval(sampler);
  sample();
  const mb = (bytes: number) => Math.round((bytes / 1024 ** 2) * 10) / 10;
  const leaked = other ? other.received.filter((headers) => "authorization" in headers || "x-api-key" in headers || "x-api-secret" in headers).length : undefined;
  console.log(
    JSON.stringify({
      case: name,
      outcome,
      wallMs,
      baseRssMB: mb(baseRss),
      peakRssMB: mb(peakRss),
      peakHeapMB: mb(peakHeap),
      serverWroteMB: mb(server.written()),
      ...(other ? { otherOriginRequests: other.received.length, otherOriginCredentialRequests: leaked } : {}),
    }),
  );
  await server.close();
  await other?.close();
}

const only = process.argv[2];
if (only) await measure(only);
else {
  for (const name of Object.keys(cases)) {
    const line = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], { encoding: "utf8" }).trim();
    const row = JSON.parse(line.split("\n").at(-1)!);
    console.log(
      [
        row.case,
        row.outcome.slice(0, 90),
        `${row.wallMs} ms`,
        `RSS ${row.baseRssMB}→${row.peakRssMB} MB`,
        `heap ${row.peakHeapMB} MB`,
        `server wrote ${row.serverWroteMB} MB`,
        row.otherOriginRequests === undefined ? "" : `other origin: ${row.otherOriginRequests} requests`,
      ].join(" | "),
    );
  }
}
