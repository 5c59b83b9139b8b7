// A TCP port nothing listens on now, for a process a test starts on a port of its choosing (a
// database cluster, a registry, Prism, a Playwright webServer); in-process servers take port 0.
import { createServer } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
