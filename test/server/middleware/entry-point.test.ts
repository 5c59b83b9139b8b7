// The entry point as `npm start` runs it (tsx server/main.ts) in its own process: it prints
// the URL, the demo credentials and where the e-mail auth key comes from; on SIGTERM it
// stops accepting, answers the request in flight, and exits 0; a bad SEED_FILE stops it
// with a non-zero exit and a message naming the bad path.
import type { ChildProcess } from "node:child_process";
import { request } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appA } from "../../support/demo.js";
import { startServerProcess } from "../../support/server-process.js";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

function startEntry(env: Record<string, string> = {}) {
  const server = startServerProcess({ LOG_LEVEL: "info", ...env });
  children.push(server.child);
  return server;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("server/main.ts", () => {
  it("prints the URL, the demo credentials and the key source; finishes the in-flight request on SIGTERM and exits 0", async () => {
    const entry = startEntry();
    const url = await entry.url;
    const { stdout } = entry.output();
    expect(stdout).toContain(appA.apiKey);
    expect(stdout).toContain(appA.apiSecret);
    expect(stdout).toMatch(/E-mail auth encryption key: random per process/);

    // A request whose body is still arriving when SIGTERM comes: it is in flight.
    const body = JSON.stringify({ sort: "DOWN" });
    const target = new URL(`${url}/sms/providers/sms_2c7e9b4f1a6d`);
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        target,
        { method: "PUT", headers: { authorization: `Bearer ${appA.apiKey}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
        (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 5));
      void sleep(400).then(() => {
        entry.child.kill("SIGTERM");
        return sleep(600).then(() => req.end(body.slice(5)));
      });
    });

    // While the request is open the server no longer accepts connections.
    await sleep(700);
    await expect(fetch(`${url}/webhooks`, { headers: { authorization: `Bearer ${appA.apiKey}` } })).rejects.toThrow();

    const response = await answered;
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toMatchObject({ type: "api.application.sms.provider.update", result: { id: "sms_2c7e9b4f1a6d" } });
    expect(await entry.exited).toBe(0);
    expect(entry.output().stdout).toContain("server closed");
  }, 60_000);

  it("says when the e-mail auth key comes from EMAIL_AUTH_KEY", async () => {
    const entry = startEntry({ EMAIL_AUTH_KEY: "ab".repeat(32) });
    await entry.url;
    expect(entry.output().stdout).toMatch(/E-mail auth encryption key: from EMAIL_AUTH_KEY/);
    entry.child.kill("SIGINT");
    expect(await entry.exited).toBe(0);
  }, 60_000);

  it("stops with a non-zero exit naming the bad path of an invalid SEED_FILE, and prints no credentials", async () => {
    const dir = mkdtempSync(join(tmpdir(), "seed-"));
    const file = join(dir, "bad-seed.json");
    writeFileSync(file, JSON.stringify({ applications: [{ id: "app_x", name: 42 }] }));
    const entry = startEntry({ SEED_FILE: file });
    const code = await entry.exited;
    expect(code).not.toBe(0);
    const { stdout, stderr } = entry.output();
    expect(stderr).toMatch(/Cannot start the reference server/);
    expect(stderr).toMatch(/\/applications\/0/);
    expect(stdout).not.toContain(appA.apiKey);
  }, 60_000);

  it("stops with a non-zero exit naming a SEED_FILE that does not exist", async () => {
    const entry = startEntry({ SEED_FILE: "/nonexistent/seed.json" });
    expect(await entry.exited).not.toBe(0);
    expect(entry.output().stderr).toContain("/nonexistent/seed.json");
  }, 60_000);
});
