// A static file server for one directory and nothing else, on a free loopback port: what
// any web server does with the docs site. Paths outside the directory, and files that do
// not exist, are 404; every request's path and status is recorded for the tests to read.
// With `precompressed`, a file's `.br` (or `.gz`) beside it is sent with its
// Content-Encoding to a client that accepts it, as nginx's brotli_static/gzip_static and
// Caddy's `precompressed` do (docs/docs-site.md, Serving it).
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
  ".md": "text/markdown; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

export interface StaticServer {
  /** Base URL, ending in `/`. */
  url: string;
  /** Every request served so far: path, status and the encoding sent. */
  served: { path: string; status: number; encoding?: string }[];
  close(): Promise<void>;
}

/** Content-Encoding and the suffix of the file that holds it, in order of preference. */
const encodings = [
  ["br", "br"],
  ["gzip", "gz"],
] as const;
const readOrUndefined = (file: string) => readFile(file).catch(() => undefined);

export async function serveDirectory(root: string, options: { precompressed?: boolean } = {}): Promise<StaticServer> {
  const served: StaticServer["served"] = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    const file = normalize(join(root, path.endsWith("/") ? `${path}index.html` : path));
    const accepts = String(req.headers["accept-encoding"] ?? "");
    let status = 404;
    let encoding: string | undefined;
    if (file.startsWith(root + sep)) {
      const body = await readOrUndefined(file);
      if (body) {
        let sent = body;
        for (const [name, extension] of options.precompressed ? encodings : []) {
          const copy = new RegExp(`\\b${name}\\b`).test(accepts) ? await readOrUndefined(`${file}.${extension}`) : undefined;
          if (copy) {
            sent = copy;
            encoding = name;
            break;
          }
        }
        status = 200;
        res.writeHead(200, {
          "content-type": types[extname(file)] ?? "application/octet-stream",
          ...(encoding ? { "content-encoding": encoding, vary: "Accept-Encoding" } : {}),
        });
        res.end(sent);
      }
    }
    if (status === 404) res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    served.push({ path, status, ...(encoding ? { encoding } : {}) });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
