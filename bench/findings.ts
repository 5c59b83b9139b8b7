// `npm run bench:findings`: replays each finding of the attack on the server and the mock
// (docs/security.md) against fresh child processes and prints one row per finding: status,
// response size and time. FINDINGS_ROOT=<checkout> replays them against another checkout
// (how the "before" column was measured).
import { spawn, type ChildProcess } from "node:child_process";
import { request, Agent } from "node:http";
import { connect } from "node:net";
import { performance } from "node:perf_hooks";

const root = process.env.FINDINGS_ROOT ?? new URL("..", import.meta.url).pathname;
const bearer = "Bearer ak_live_acme_4f9e2b7c1d8a6e3f";
const pair = "X-Api-Key: ak_live_acme_4f9e2b7c1d8a6e3f\r\nX-Api-Secret: as_live_acme_9b1e6d3f7a2c5e8b\r\n";
const otherBearer = "Bearer ak_live_northwind_7c3a9e1f5b2d8c4a";

interface Child {
  port: number;
  process: ChildProcess;
  /** Bytes written to stdout so far (the request log). */
  logBytes(): number;
  logText(): string;
  exited(): boolean;
}

async function start(script: string, env: Record<string, string>, ready: RegExp): Promise<Child> {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = ready.exec(out);
      if (match) {
        clearInterval(timer);
        resolve(Number(match[1]));
      }
      if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`${script} exited: ${out}`));
      }
    }, 50);
  });
  return { port, process: child, logBytes: () => Buffer.byteLength(out), logText: () => out, exited: () => child.exitCode !== null || child.signalCode !== null };
}

interface Answer {
  status: number | string;
  bytes: number;
  ms: number;
  head: string;
  body: string;
}

/** Sends `head` (+ body) on a raw socket and reads until the server closes or `timeoutMs`. */
function raw(port: number, head: string, body: string | Buffer = "", timeoutMs = 20_000): Promise<Answer> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let settled = false;
    const done = (status?: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const text = Buffer.concat(chunks);
      const headEnd = text.indexOf("\r\n\r\n");
      const firstLine = text.subarray(0, text.indexOf("\r\n")).toString();
      resolve({
        status: status ?? (Number(/^HTTP\/1\.1 (\d+)/.exec(firstLine)?.[1]) || "no answer"),
        bytes: headEnd === -1 ? 0 : text.length - headEnd - 4,
        ms: performance.now() - t0,
        head: headEnd === -1 ? text.toString() : text.subarray(0, headEnd).toString(),
        body: headEnd === -1 ? "" : text.subarray(headEnd + 4).toString(),
      });
    };
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => done());
    socket.on("close", () => done());
    socket.on("error", (error: NodeJS.ErrnoException) => done(chunks.length ? undefined : (error.code ?? "error")));
    socket.setTimeout(timeoutMs, () => done(chunks.length ? undefined : `open after ${timeoutMs / 1000} s`));
    socket.write(head.replace(/\r?\n/g, "\r\n") + "Connection: close\r\n\r\n");
    if (body.length) socket.write(body);
  });
}

const get = (port: number, path: string, headers = `Authorization: ${bearer}\r\n`) => raw(port, `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}`);
const send = (port: number, method: string, path: string, headers: string, body: string) =>
  raw(port, `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}`, body);

const rows: string[][] = [];
const row = (finding: string, repro: string, answer: Answer | string, note = "") =>
  rows.push([finding, repro, typeof answer === "string" ? answer : `${answer.status}, ${formatBytes(answer.bytes)}, ${answer.ms.toFixed(0)} ms`, note]);
const formatBytes = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e4 ? `${(n / 1e3).toFixed(0)} kB` : `${n} B`);
const header = (answer: Answer, name: string) => new RegExp(`^${name}: *(.*)$`, "im").exec(answer.head)?.[1]?.trim();

async function serverFindings(): Promise<void> {
  const server = await start("server/main.ts", { PORT: "0", LOG_LEVEL: "info", NODE_ENV: "production" }, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
  const { port } = server;
  try {
    const patterns = JSON.stringify({ patterns: Array<string>(33_000).fill("") });
    const countries = JSON.stringify({ countries: Array<number>(49_000).fill(1) });
    row(
      "1 amplification",
      `PUT sms provider, ${formatBytes(patterns.length)} of 33,000 empty patterns`,
      await send(port, "PUT", "/v1/sms/providers/sms_2c7e9b4f1a6d", `Authorization: ${bearer}\r\n`, patterns),
    );
    row(
      "1 amplification",
      `PUT sms provider, ${formatBytes(countries.length)} of 49,000 numeric countries`,
      await send(port, "PUT", "/v1/sms/providers/sms_2c7e9b4f1a6d", `Authorization: ${bearer}\r\n`, countries),
    );

    const variants = Array.from({ length: 1000 }, (_, i) => [..."maria.lopez@acme-shop.example"].map((c, j) => ((i >> j) & 1 ? c.toUpperCase() : c)).join(""));
    const notification = JSON.stringify({ type: "SIMPLE", title: "t", content: "c", receivers: [...new Set(variants)] });
    const created = await send(port, "POST", "/v1/notifications", pair, notification);
    row(
      "3 memory",
      "POST /notifications, one user's e-mail in 1,000 letter cases",
      created,
      `receivers kept: ${/"receivers":\[([^\]]*)\]/.exec(created.body)?.[1]?.split(",").length ?? "none"}`,
    );

    const before = server.logBytes();
    const junk = await get(
      port,
      "/v1/widgets/wgt_5a3c8e1f7b92",
      `Authorization: Bearer nope\r\nCookie: session=s3cr3t-cookie\r\nProxy-Authorization: Basic cHJveHk6c2VjcmV0\r\nX-Junk: ${"j".repeat(15_000)}\r\n`,
    );
    await new Promise((r) => setTimeout(r, 300));
    const line = server.logText().slice(-(server.logBytes() - before));
    row(
      "5 logs",
      "401 with Cookie, Proxy-Authorization and a 15 kB junk header",
      junk,
      `log line ${formatBytes(server.logBytes() - before)}; cookie ${line.includes("s3cr3t-cookie") ? "in clear" : "absent"}`,
    );

    const expect = await raw(
      port,
      `PUT /v1/sms/providers/sms_2c7e9b4f1a6d HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 90000\r\nExpect: 100-continue\r\n`,
      "",
      3000,
    );
    row("7 body before auth", "Expect: 100-continue, 90 kB, no credentials", expect, `first line: ${expect.head.split("\r\n")[0]}`);

    const widget = await get(port, "/v1/widgets/wgt_5a3c8e1f7b92");
    row(
      "8 headers",
      "GET widget (authenticated)",
      widget,
      `nosniff ${header(widget, "X-Content-Type-Options") ?? "absent"}; Cache-Control ${header(widget, "Cache-Control") ?? "absent"}`,
    );

    const goodBad = await get(port, "/v1/widgets/wgt_5a3c8e1f7b92", `Authorization: ${bearer}\r\nAuthorization: ${otherBearer}x\r\n`);
    const badGood = await get(port, "/v1/widgets/wgt_5a3c8e1f7b92", `Authorization: ${otherBearer}x\r\nAuthorization: ${bearer}\r\n`);
    row("9 duplicate auth", "two Authorization headers, good then bad / bad then good", `${goodBad.status} / ${badGood.status}`);

    for (const limit of ["0x10", "1e1", "%2010"]) {
      row("10 integers", `GET reports?limit=${limit}`, await get(port, `/v1/reports/encryption?limit=${limit}`));
    }
    const page = await get(port, "/v1/reports/encryption?page=9999999999999999999999");
    row("10 integers", "GET reports?page=9999999999999999999999", page);
    const big = await get(port, "/v1/widgets/wgt_5a3c8e1f7b92", `Authorization: ${bearer}\r\nX-Big: ${"b".repeat(20_000)}\r\n`);
    row("10 Node errors", "a 20 kB header (Node's 431)", big, `Content-Type ${header(big, "Content-Type") ?? "none"}`);
    const garbage = await raw(port, "GET /v1/widgets/x HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n");
    row("10 Node errors", "a malformed header line (Node's 400)", garbage, `Content-Type ${header(garbage, "Content-Type") ?? "none"}`);

    // The trickle last: it holds a socket for up to 45 s.
    const trickle = await new Promise<Answer>((resolve) => {
      const t0 = performance.now();
      const socket = connect(port, "127.0.0.1");
      let answer = "";
      socket.write(
        `PUT /v1/sms/providers/sms_2c7e9b4f1a6d HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${bearer}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      );
      const drip = setInterval(() => socket.write(" "), 5000);
      const finish = (status: string | number) => {
        clearInterval(drip);
        socket.destroy();
        resolve({ status, bytes: answer.length, ms: performance.now() - t0, head: answer, body: "" });
      };
      socket.on("data", (chunk) => (answer += chunk.toString()));
      socket.on("close", () => finish(Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]) || "closed"));
      socket.on("error", () => undefined);
      setTimeout(() => finish("still open"), 45_000);
    });
    row("7 slow body", "body trickled 1 byte per 5 s", trickle);
  } finally {
    server.process.kill("SIGKILL");
  }
}

/** On its own server: past the failed-authentication limit every request from the address is a 429. */
async function failedAuthFinding(): Promise<void> {
  const server = await start("server/main.ts", { PORT: "0", LOG_LEVEL: "warn", NODE_ENV: "production" }, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
  const { port } = server;
  try {
    let unauthorized = 0;
    let limited = 0;
    for (let i = 0; i < 700; i++) {
      const answer = await get(port, "/v1/widgets/wgt_5a3c8e1f7b92", `Authorization: Bearer ak_bogus_${i}\r\n`);
      if (answer.status === 401) unauthorized++;
      if (answer.status === 429) limited++;
    }
    row("4 failed auth", "700 different bogus keys from one IP", `${unauthorized} × 401, ${limited} × 429`);
  } finally {
    server.process.kill("SIGKILL");
  }
}

async function shutdownFinding(): Promise<void> {
  const server = await start("server/main.ts", { PORT: "0", LOG_LEVEL: "warn", NODE_ENV: "production", RATE_LIMIT: "off" }, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
  const agent = new Agent({ keepAlive: true, maxSockets: 20 });
  const outcomes = new Map<string, number>();
  const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  let signalled = false;
  const one = () =>
    new Promise<void>((resolve) => {
      const req = request({ port: server.port, host: "127.0.0.1", path: "/v1/widgets/wgt_5a3c8e1f7b92", agent, headers: { Authorization: bearer } }, (res) => {
        res.resume();
        res.on("end", () => {
          if (signalled) count(res.headers.connection === "close" ? `${res.statusCode} + Connection: close` : `${res.statusCode}`);
          resolve();
        });
      });
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (signalled) count(error.code ?? "error");
        resolve();
      });
      req.end();
    });
  const loops = Array.from({ length: 20 }, async () => {
    while (!server.exited()) await one();
  });
  await new Promise((r) => setTimeout(r, 1000));
  const t0 = performance.now();
  signalled = true;
  server.process.kill("SIGTERM");
  await new Promise((r) => server.process.once("exit", r));
  const exitMs = performance.now() - t0;
  signalled = false;
  await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, 2000))]);
  agent.destroy();
  row("6 shutdown", "SIGTERM under 20 keep-alive clients", `exit after ${exitMs.toFixed(0)} ms`, [...outcomes].map(([k, v]) => `${v} × ${k}`).join(", "));
}

const startMock = () => start("mock/main.ts", { PORT: "0" }, /on http:\/\/127\.0\.0\.1:(\d+)/);

async function mockFindings(): Promise<void> {
  let mock = await startMock();
  try {
    for (const path of ["/v1/webhooks/%C0%AE/history", "/v1/widgets/%E0%A4%A"]) {
      const answer = await raw(mock.port, `GET ${path} HTTP/1.1\r\nHost: localhost\r\n`);
      await new Promise((r) => setTimeout(r, 300));
      row("2 mock dies", `mock GET ${path}, no credentials`, answer, mock.exited() ? "mock process exited" : "mock still running");
      if (mock.exited()) mock = await startMock();
    }
    const { port } = mock;
    const tenMb = JSON.stringify({ name: "x".repeat(10_000_000) });
    row("10 mock", "mock PUT sms provider, 10 MB body", await send(port, "PUT", "/v1/sms/providers/sms_2c7e9b4f1a6d", `Authorization: ${bearer}\r\n`, tenMb));
    row("10 mock", "mock GET widget?unknown=1", await get(port, "/v1/widgets/wgt_5a3c8e1f7b92?unknown=1"));
  } finally {
    mock.process.kill("SIGKILL");
  }
}

await mockFindings();
await serverFindings();
await failedAuthFinding();
await shutdownFinding();
rows.sort((a, b) => parseInt(a[0]!, 10) - parseInt(b[0]!, 10));
console.log(["| finding | repro | status, size, time | notes |", "|---|---|---|---|", ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n"));
process.exit(0);
