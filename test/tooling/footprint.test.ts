// The footprint figures quoted in README.md and the docs are written by `npm run
// bench:footprint` only: each marked region must be what its last measurement
// (bench/footprint/figures.json) renders, so a figure typed by hand fails here; and the
// client bundle, rebuilt from the source now, must still be within 5% of the measured one,
// so a client change that grows it fails until the script is rerun. The install figures
// are checked against the package tests' own install (test/package/pack.test.ts), never
// measured here: that needs packing and installing.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clientBundle } from "../../bench/footprint/bundle.js";
import { documents, fill, regionsIn, render, type Footprint } from "../../bench/footprint/regions.js";
import { root } from "./run.js";

const figures = JSON.parse(readFileSync(join(root, "bench/footprint/figures.json"), "utf8")) as Footprint;
const rerun = "rerun npm run bench:footprint (the only writer of these figures)";

describe("the footprint figures in the docs", () => {
  it.each(documents)("%s: every region is what the last measurement renders", (document) => {
    const text = readFileSync(join(root, document), "utf8");
    const regions = regionsIn(text);
    expect(regions.length, `${document} quotes no footprint region`).toBeGreaterThan(0);
    expect(fill(text, figures), rerun).toBe(text);
  });

  it("a figure typed by hand into a region is caught; an unknown region is refused", () => {
    const text = `The client is <!-- footprint:client-gzip -->${render(figures)["client-gzip"]}<!-- /footprint --> gzipped.`;
    expect(fill(text, figures)).toBe(text);
    expect(fill(text.replace(/\d+\.\d kB/, "4.4 kB"), figures)).not.toBe(text.replace(/\d+\.\d kB/, "4.4 kB"));
    expect(() => fill("<!-- footprint:nope -->x<!-- /footprint -->", figures)).toThrow(/unknown footprint region "nope"/);
  });

  it("the client bundle measured then is within 5% of a fresh build of the source", async () => {
    const fresh = await clientBundle(root, "test/package/consumer/src/client-only.ts", { "@authsvc/app-api-contract": "./client/index.ts" });
    expect(
      Math.abs(fresh.bytes - figures.clientBundle.bytes) / figures.clientBundle.bytes,
      `fresh ${fresh.bytes} B vs ${figures.clientBundle.bytes} B; ${rerun}`,
    ).toBeLessThanOrEqual(0.05);
    expect(
      Math.abs(fresh.gzipBytes - figures.clientBundle.gzipBytes) / figures.clientBundle.gzipBytes,
      `fresh ${fresh.gzipBytes} B gzipped; ${rerun}`,
    ).toBeLessThanOrEqual(0.05);
  });
});
