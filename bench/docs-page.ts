// `npm run bench:docs-page`: the docs page `npm run docs` builds against Redoc's inline build
// of the same document (`redocly build-docs generated/openapi.json --inlineBundle`, the one
// offline HTML file it writes), measured in one run, interleaved, each served alone by the
// same static server sending the precompressed brotli copies (test/docs/static-server.ts;
// Redoc's page gets its .br/.gz made here like ours). For each page, at 1440 px and at 390 px
// with the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate), median of DOCS_BENCH_RUNS (3)
// fresh loads in Chromium (Debian's /usr/bin/chromium):
//   - first contentful paint of the landing page;
//   - Getting started shown: its heading painted inside the first screen of the landing page;
//   - a deep-linked operation shown: POST /notifications opened by its link, its heading
//     painted inside the screen (ours `notifications.html#tag/notifications/POST/notifications`, Redoc's
//     `#/notifications/createnotification`);
//   - bytes of the first view (every file the landing page loads), raw, gzip -9 and brotli 11;
// and Lighthouse (the `lighthouse` package, its default mobile emulation and simulated
// throttling, Chromium through CHROME_PATH) performance and accessibility, median of the runs.
// Prints the table and writes it into docs/docs-site.md between its `bench:docs-page` markers,
// with the time and the machine's load average.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { createServer } from "node:net";
import lighthouse from "lighthouse";
import { type Browser, chromium } from "playwright-core";
import { chromiumArgs as flags, chromiumPath } from "../test/support/real-parts.js";
import { serveDirectory, type StaticServer } from "../test/docs/static-server.js";

const runs = Number(process.env.DOCS_BENCH_RUNS ?? 3);
const require = createRequire(import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), "docs-page-bench-"));
const operationTitle = "Schedule an in-app notification";

const compress = (raw: Buffer) => ({
  br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
  gz: gzipSync(raw, { level: 9 }),
});

interface Subject {
  name: string;
  dir: string;
  /** The link (from the site's root) that opens POST /notifications. */
  operation: string;
  server?: StaticServer;
}

function build(): Subject[] {
  const page = join(scratch, "page");
  execFileSync(process.execPath, [require.resolve("tsx/cli"), "scripts/docs/build.ts", page], { stdio: "ignore" });
  const redoc = join(scratch, "redoc");
  mkdirSync(redoc);
  execFileSync(
    process.execPath,
    [require.resolve("@redocly/cli/bin/cli.js"), "build-docs", "generated/openapi.json", "--inlineBundle", "-o", join(redoc, "index.html")],
    {
      stdio: "ignore",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  );
  const html = readFileSync(join(redoc, "index.html"));
  const { br, gz } = compress(html);
  writeFileSync(join(redoc, "index.html.br"), br);
  writeFileSync(join(redoc, "index.html.gz"), gz);
  return [
    { name: "this page", dir: page, operation: "notifications.html#tag/notifications/POST/notifications" },
    { name: "Redoc, inline build", dir: redoc, operation: "#/notifications/createnotification" },
  ];
}

/**
 * Records, inside the page, when each heading (by the start of its text) is first painted
 * inside the viewport: checked every animation frame from the document's start. A string,
 * not a function: tsx's compiled functions call a helper (`__name`) the page does not have.
 */
const watchHeadings = (titles: Record<string, string>) => `(() => {
  const titles = ${JSON.stringify(titles)};
  const shown = {};
  window.__shown = shown;
  const check = () => {
    for (const [key, text] of Object.entries(titles)) {
      if (shown[key] !== undefined) continue;
      for (const heading of document.querySelectorAll("h1, h2, h3")) {
        if (!(heading.textContent || "").trim().startsWith(text)) continue;
        const box = heading.getBoundingClientRect();
        if (box.height > 0 && box.top >= 0 && box.top < innerHeight) shown[key] = performance.now();
      }
    }
    if (Object.keys(shown).length < Object.keys(titles).length) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

interface Load {
  firstPaint: number;
  gettingStarted: number;
  operation: number;
  bytes: { raw: number; gz: number; br: number; requests: number };
}

async function measure(browser: Browser, subject: Subject, width: number): Promise<Load> {
  const open = async (hash: string, titles: Record<string, string>) => {
    const context = await browser.newContext({ viewport: { width, height: width === 1440 ? 1000 : 844 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.route("**/*", (route) => (route.request().url().startsWith(subject.server!.url) ? route.continue() : route.abort()));
    const cdp = await context.newCDPSession(page);
    if (width < 1000) await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const bodies: Buffer[] = [];
    page.on("response", async (response) => {
      const body = await response.body().catch(() => undefined);
      if (body) bodies.push(body);
    });
    await page.addInitScript({ content: watchHeadings(titles) });
    await page.goto(`${subject.server!.url}${hash}`, { waitUntil: "load", timeout: 120_000 });
    await page.waitForFunction(`Object.keys(window.__shown).length === ${Object.keys(titles).length}`, undefined, { timeout: 120_000, polling: 100 });
    await page.waitForTimeout(1_500);
    const shown = (await page.evaluate("window.__shown")) as Record<string, number>;
    const firstPaint = (await page.evaluate(`performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN`)) as number;
    await context.close();
    return { shown, firstPaint, bodies };
  };
  const landing = await open("", { gettingStarted: "Getting started" });
  const deep = await open(subject.operation, { operation: operationTitle });
  const bytes = landing.bodies.reduce(
    (sum, body) => {
      const { br, gz } = compress(body);
      return { raw: sum.raw + body.length, gz: sum.gz + gz.length, br: sum.br + br.length, requests: sum.requests + 1 };
    },
    { raw: 0, gz: 0, br: 0, requests: 0 },
  );
  // The frame a heading is first laid out on screen is painted after its animation-frame
  // callback: nothing is seen before the page's first contentful paint.
  const deepPaint = deep.firstPaint;
  return {
    firstPaint: landing.firstPaint,
    gettingStarted: Math.max(landing.shown.gettingStarted!, landing.firstPaint),
    operation: Math.max(deep.shown.operation!, deepPaint),
    bytes,
  };
}

/** A free loopback port (for Chromium's DevTools endpoint, which Lighthouse drives). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

async function lighthouseScores(url: string): Promise<{ performance: number; accessibility: number; lcp: number; tbt: number }> {
  // A browser of its own per run (fresh profile), its DevTools port open for Lighthouse.
  const port = await freePort();
  const chrome = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? chromiumPath, args: [...flags, `--remote-debugging-port=${port}`] });
  try {
    const result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility"] });
    const lhr = result!.lhr;
    return {
      performance: Math.round((lhr.categories.performance!.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility!.score ?? 0) * 100),
      lcp: lhr.audits["largest-contentful-paint"]!.numericValue ?? Number.NaN,
      tbt: lhr.audits["total-blocking-time"]!.numericValue ?? Number.NaN,
    };
  } finally {
    await chrome.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kB = (bytes: number) => `${Math.round(bytes / 1000).toLocaleString("en")} kB`;

const load = loadavg()[0]!.toFixed(1);
const subjects = build();
for (const subject of subjects) subject.server = await serveDirectory(subject.dir, { precompressed: true });
const browser = await chromium.launch({ executablePath: chromiumPath, args: flags });
const loads = new Map<string, Load[]>();
const scores = new Map<string, Awaited<ReturnType<typeof lighthouseScores>>[]>();
try {
  for (let run = 0; run < runs; run++) {
    for (const subject of subjects) {
      for (const width of [1440, 390]) {
        const key = `${subject.name} ${width}`;
        const result = await measure(browser, subject, width);
        loads.set(key, [...(loads.get(key) ?? []), result]);
        console.log(`run ${run + 1} ${key}: first paint ${s(result.firstPaint)}, Getting started ${s(result.gettingStarted)}, operation ${s(result.operation)}`);
      }
      const score = await lighthouseScores(subject.server!.url);
      scores.set(subject.name, [...(scores.get(subject.name) ?? []), score]);
      console.log(`run ${run + 1} ${subject.name}: Lighthouse performance ${score.performance}, accessibility ${score.accessibility}`);
    }
  }
} finally {
  await browser.close();
  for (const subject of subjects) await subject.server?.close();
  rmSync(scratch, { recursive: true, force: true });
}

const loadAfter = loadavg()[0]!.toFixed(1);
const cell = (subject: Subject, width: number) => {
  const list = loads.get(`${subject.name} ${width}`)!;
  return `${s(median(list.map((l) => l.firstPaint)))} / ${s(median(list.map((l) => l.gettingStarted)))} / ${s(median(list.map((l) => l.operation)))}`;
};
const bytes = (subject: Subject) => {
  const b = loads.get(`${subject.name} 1440`)![0]!.bytes;
  return `${kB(b.raw)} / ${kB(b.gz)} / ${kB(b.br)}, ${b.requests} request${b.requests === 1 ? "" : "s"}`;
};
const lighthouseCell = (subject: Subject) => {
  const list = scores.get(subject.name)!;
  return `${median(list.map((x) => x.performance))} / ${median(list.map((x) => x.accessibility))} (LCP ${s(median(list.map((x) => x.lcp)))}, TBT ${Math.round(median(list.map((x) => x.tbt)))} ms)`;
};
const table = [
  `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC by \`npm run bench:docs-page\`, median of ${runs} interleaved runs, load average ${load} at the start and ${loadAfter} at the end (2 cores).`,
  "",
  `| | ${subjects.map((x) => x.name).join(" | ")} |`,
  `| --- | ${subjects.map(() => "---").join(" | ")} |`,
  `| first view: bytes raw / gzip / brotli | ${subjects.map(bytes).join(" | ")} |`,
  `| 1440 px: first paint / Getting started shown / deep-linked operation shown | ${subjects.map((x) => cell(x, 1440)).join(" | ")} |`,
  `| 390 px, CPU 4×: first paint / Getting started shown / deep-linked operation shown | ${subjects.map((x) => cell(x, 390)).join(" | ")} |`,
  `| Lighthouse mobile: performance / accessibility | ${subjects.map(lighthouseCell).join(" | ")} |`,
].join("\n");
console.log(`\n${table}`);

const file = "docs/docs-site.md";
const [start, end] = ["<!-- bench:docs-page:start -->", "<!-- bench:docs-page:end -->"];
const text = readFileSync(file, "utf8");
if (!text.includes(start) || !text.includes(end)) throw new Error(`${file} has no ${start} … ${end} block`);
writeFileSync(file, `${text.slice(0, text.indexOf(start) + start.length)}\n${table}\n${text.slice(text.indexOf(end))}`);
console.log(`written into ${file}`);
