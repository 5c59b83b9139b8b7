// The child side of a benchmark target: each target runs in its own process so that its CPU
// time and peak RSS are its own (the load generator runs in the parent). The child starts
// its server, says where it listens, and answers usage questions over IPC.
export interface Usage {
  /** Process CPU time so far, user + system, in microseconds. */
  cpuMicros: number;
  /** Peak resident set size so far, in kB. */
  maxRssKb: number;
  /** Current resident set size, in kB. */
  rssKb: number;
  /** V8 heap in use, in kB (tells heap growth from allocator and code-space growth). */
  heapUsedKb: number;
  /** V8 heap reserved (used + free pages it keeps), in kB. */
  heapTotalKb: number;
  /** Memory outside the V8 heap (Buffers, ArrayBuffers), in kB. */
  externalKb: number;
}

export type ToChild = { type: "usage"; id: number; gc?: boolean } | { type: "profile-start"; id: number } | { type: "profile-stop"; id: number; file: string };
export type FromChild =
  | { type: "ready"; url: string; info?: unknown }
  | { type: "usage"; id: number; usage: Usage }
  | { type: "done"; id: number }
  | { type: "failed"; message: string };

/** A CPU profile of the measured window only (start-up excluded), through the inspector. */
const profiler = {
  session: undefined as import("node:inspector/promises").Session | undefined,
  async start() {
    const { Session } = await import("node:inspector/promises");
    this.session = new Session();
    this.session.connect();
    await this.session.post("Profiler.enable");
    await this.session.post("Profiler.start");
  },
  async stop(file: string) {
    const { profile } = await this.session!.post("Profiler.stop");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, JSON.stringify(profile));
    this.session!.disconnect();
  },
};

function usage(): Usage {
  const cpu = process.cpuUsage();
  return {
    cpuMicros: cpu.user + cpu.system,
    maxRssKb: process.resourceUsage().maxRSS,
    rssKb: Math.round(process.memoryUsage.rss() / 1024),
    ...(({ heapUsed, heapTotal, external }) => ({
      heapUsedKb: Math.round(heapUsed / 1024),
      heapTotalKb: Math.round(heapTotal / 1024),
      externalKb: Math.round(external / 1024),
    }))(process.memoryUsage()),
  };
}

/** Starts a target server and serves the parent's usage questions until the parent goes. */
export async function serveForBench(start: () => Promise<{ url: string; info?: unknown }>): Promise<void> {
  if (!process.send) throw new Error("a bench target runs as a child process (fork) with IPC");
  const send = (m: FromChild) => process.send!(m);
  process.on("message", async (m: ToChild) => {
    if (m.type === "usage") {
      // With --expose-gc, a full collection first: what stays is what the process retains.
      if (m.gc) (globalThis as { gc?: () => void }).gc?.();
      send({ type: "usage", id: m.id, usage: usage() });
    }
    if (m.type === "profile-start") await profiler.start().then(() => send({ type: "done", id: m.id }));
    if (m.type === "profile-stop") await profiler.stop(m.file).then(() => send({ type: "done", id: m.id }));
  });
  // The parent holds the only reference to us; when it goes, we go.
  process.on("disconnect", () => process.exit(0));
  try {
    const { url, info } = await start();
    send({ type: "ready", url, info });
  } catch (error) {
    send({ type: "failed", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  }
}
