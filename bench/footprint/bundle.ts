// The client as a frontend's bundler ships it: esbuild over an entry that imports it
// (test/package/consumer/src/client-only.ts), minified ESM for browsers, and its gzipped size.
// The footprint script runs it in a project with the packed contract installed; the docs
// test runs it over the source (`alias` maps the package name to client/index.ts), which
// bundles to within a few bytes of the package's dist.
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

export async function clientBundle(project: string, entry: string, alias: Record<string, string> = {}): Promise<{ bytes: number; gzipBytes: number }> {
  const result = await build({
    absWorkingDir: project,
    entryPoints: [entry],
    alias,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  return { bytes: code.length, gzipBytes: gzipSync(code).length };
}
