// `npm run bench:unread-body`: how much of a body the server reads after answering it unread.
// For each host (the reference server, the mock, the docs' service under listen() and under
// plain app.listen()), one connection sends `PUT <base>/sms/providers/sms_2c7e9b4f1a6d`
// declaring `Content-Length: 10000000000` with no credentials and writes the body as fast as
// the server takes it: the answer, the bytes the server's socket read (Node's
// `net.server.socket` channel, in this process) and how long until the connection closed.
// The client gives up after UNREAD_MAX_MS (default 10 000) or UNREAD_MAX_MB (default 20 000)
// and reports the connection as still open. Prints the table and writes its block of
// bench/README.md.
import { subscribe } from "node:diagnostics_channel";
import type { Socket } from "node:net";
import { hostNames, startHost } from "../test/support/hosts.js";
import { sendUnreadBody } from "../test/support/unread-body.js";
import { writeReadmeBlock } from "./lib/readme.js";
import { fixed, machine, markdownTable, table } from "./lib/report.js";

const maxMs = Number(process.env.UNREAD_MAX_MS ?? 10_000);
const maxBytes = Number(process.env.UNREAD_MAX_MB ?? 20_000) * 1e6;

/** Server-side sockets of this process, as they are accepted. */
const accepted: Socket[] = [];
subscribe("net.server.socket", (message) => void accepted.push((message as { socket: Socket }).socket));

const before = await machine();
const rows: (string | number)[][] = [];
const results: Record<string, unknown>[] = [];
for (const name of hostNames) {
  const host = await startHost(name);
  accepted.length = 0;
  const result = await sendUnreadBody(host.origin, `${host.base}/sms/providers/sms_2c7e9b4f1a6d`, { maxBytes, maxMs });
  const serverRead = accepted.reduce((sum, socket) => sum + socket.bytesRead, 0);
  await host.close();
  results.push({ host: name, ...result, serverBytesRead: serverRead });
  rows.push([
    name,
    result.statusLine || "(none)",
    result.connection ?? "keep-alive (default)",
    fixed(serverRead / 1e3, 0),
    fixed(result.ms, 0),
    result.closedBy === "server" ? "closed by the server" : `still open, client gave up`,
  ]);
}
const after = await machine();

const headers = ["host", "answer", "Connection", "server read kB", "ms to close", "end"];
const title = `**Unread body** (\`npm run bench:unread-body\`), ${new Date().toISOString()}: \`PUT …/sms/providers/{id}\` without credentials declaring \`Content-Length: 10000000000\`, written as fast as the server reads, the client giving up after ${maxMs} ms (${before.cpus} × ${before.cpuModel}, Node ${before.node}; load average ${before.loadavg.join(" / ")} before, ${after.loadavg.join(" / ")} after):`;
console.log(`${title}\n`);
console.log(table(headers, rows));
console.log(JSON.stringify({ machine: { before, after }, results }));
writeReadmeBlock("unread-body", `${title}\n\n${markdownTable(headers, rows)}`);
