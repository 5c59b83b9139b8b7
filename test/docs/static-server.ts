// A static file server for one directory and nothing else, on a free loopback port: what
// any web server does with the docs site. Paths outside the directory, and files that do
// not exist, are 404; every request's path and status is recorded for the tests to read.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".js": "text/javascript",
  ".css": "text/css",
};

export interface StaticServer {
  /** Base URL, ending in `/`. */
  url: string;
  /** Every request served so far: path and status. */
  served: { path: string; status: number }[];
  close(): Promise<void>;
}

export async function serveDirectory(root: string): Promise<StaticServer> {
  const served: StaticServer["served"] = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    const file = normalize(join(root, path.endsWith("/") ? `${path}index.html` : path));
    let status = 404;
    if (file.startsWith(root + sep)) {
      try {
        const body = await readFile(file);
        status = 200;
        res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
        res.end(body);
      } catch {
        // not a file of the directory: 404 below
      }
    }
    if (status === 404) res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    served.push({ path, status });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
