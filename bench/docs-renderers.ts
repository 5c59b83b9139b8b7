// `npm run bench:docs`: the docs page under each renderer judged side by side on this
// document (docs/docs-site.md keeps the table): Redoc as `redocly build-docs` renders it,
// Scalar's API reference as `npm run docs` builds it, and Swagger UI (swagger-ui-dist) on the
// same document. For each: bytes the browser loads (raw, gzip -9, brotli 11), first
// contentful paint and the time until the document's title is shown in Chromium at 390 px
// with the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate; median of DOCS_BENCH_RUNS, 3),
// and axe-core's serious and critical violations at 1440 and 390 px. Each page is served
// alone by test/docs/static-server.ts; a request leaving it is counted and refused.
// `-- --only scalar` measures the built page alone (what `npm run docs` ships). Each run writes
// its figures into docs/docs-site.md, between the `bench:docs` markers: one row per renderer,
// a renderer not measured in this run keeps its row.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { chromium, type Browser, type Page } from "playwright-core";
import { serveDirectory } from "../test/docs/static-server.js";

const runs = Number(process.env.DOCS_BENCH_RUNS ?? 3);
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
const require = createRequire(import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), "docs-bench-"));
const document = readFileSync("generated/openapi.json", "utf8");
const titleText = JSON.parse(document).info.title as string;

/** Each renderer's page in a directory of its own. */
const builders: Record<string, (dir: string) => void> = {
  redoc(dir) {
    execFileSync(
      process.execPath,
      [require.resolve("@redocly/cli/bin/cli.js"), "build-docs", "generated/openapi.json", "--inlineBundle", "-o", join(dir, "index.html")],
      {
        stdio: "ignore",
        env: { ...process.env, REDOCLY_TELEMETRY: "off" },
      },
    );
  },
  scalar(dir) {
    execFileSync(process.execPath, [require.resolve("tsx/cli"), "scripts/docs/build.ts", dir], { stdio: "ignore" });
    for (const name of readdirSync(dir)) if (/\.(br|gz)$/.test(name) || name === "openapi.json") rmSync(join(dir, name));
  },
  "swagger-ui": (dir) => {
    const dist = join(require.resolve("swagger-ui-dist/package.json"), "..");
    for (const name of ["swagger-ui-bundle.js", "swagger-ui.css"]) copyFileSync(join(dist, name), join(dir, name));
    writeFileSync(join(dir, "start.js"), `SwaggerUIBundle({ spec: ${document}, dom_id: "#app", tryItOutEnabled: true });`);
    writeFileSync(
      join(dir, "index.html"),
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${titleText}</title><link rel="stylesheet" href="swagger-ui.css"></head><body><div id="app"></div><script src="swagger-ui-bundle.js"></script><script src="start.js"></script></body></html>`,
    );
  },
};

const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
/** The document's title as the page's heading (Swagger UI adds the version to it). */
const shown = (page: Page) => page.locator("h1, h2").filter({ hasText: titleText }).first();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(browser: Browser, name: string) {
  const dir = join(scratch, name);
  mkdirSync(dir);
  builders[name]!(dir);
  let raw = 0;
  let gz = 0;
  let br = 0;
  for (const file of readdirSync(dir)) {
    const bytes = readFileSync(join(dir, file));
    raw += statSync(join(dir, file)).size;
    gz += gzipSync(bytes, { level: 9 }).length;
    br += brotliCompressSync(bytes).length;
  }
  const server = await serveDirectory(dir);
  const outside: string[] = [];
  const paints: number[] = [];
  const titles: number[] = [];
  const references: number[] = [];
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    await page.route("**/*", (route) => (route.request().url().startsWith(server.url) ? route.continue() : (outside.push(route.request().url()), route.abort())));
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.goto(server.url, { waitUntil: "load", timeout: 120_000 });
    await shown(page).waitFor({ timeout: 120_000 });
    titles.push(await page.evaluate(() => performance.now()));
    await page
      .locator("h1, h2")
      .filter({ hasText: /^\s*Getting started\s*$/ })
      .first()
      .waitFor({ timeout: 120_000 });
    references.push(await page.evaluate(() => performance.now()));
    paints.push(
      await page.evaluate(
        () =>
          new Promise<number>((resolve) =>
            new PerformanceObserver((list) => {
              const entry = list.getEntriesByName("first-contentful-paint")[0];
              if (entry) resolve(entry.startTime);
            }).observe({ type: "paint" as never, buffered: true }),
          ),
      ),
    );
    await context.close();
  }
  const axe: Record<string, string> = {};
  for (const width of [1440, 390]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(server.url, { waitUntil: "load" });
    await shown(page).waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1_000);
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run();
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
    });
    const severe = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    axe[width] =
      `${severe.reduce((n, v) => n + v.nodes, 0)} nodes (${severe.map((v) => `${v.id} ${v.nodes}`).join(", ") || "none"}); ${violations.length - severe.length} lesser rules`;
    await context.close();
  }
  await server.close();
  const kB = (n: number) => `${(n / 1000).toFixed(0)} kB`;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  rows[name] =
    `| ${name} | ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load ${loadavg()[0]!.toFixed(1)} | ${kB(raw)} / ${kB(gz)} / ${kB(br)} | ${seconds(median(paints))} | ${seconds(median(references))} | ${axe[1440]!.split(" ")[0]} / ${axe[390]!.split(" ")[0]} | ${outside.length} |`;
  console.log(
    `${name}: ${kB(raw)} raw, ${kB(gz)} gzip, ${kB(br)} brotli; first contentful paint ${median(paints).toFixed(0)} ms, title shown ${median(titles).toFixed(0)} ms, reference rendered (its Getting started heading) ${median(references).toFixed(0)} ms (390 px, CPU 4×, median of ${runs}); axe serious+critical at 1440 px: ${axe[1440]}; at 390 px: ${axe[390]}; requests outside: ${outside.length}`,
  );
}

/** The figures of docs/docs-site.md's table between its markers, by renderer: this run's replace those it measured. */
const table = "docs/docs-site.md";
const [start, end] = ["<!-- bench:docs:start -->", "<!-- bench:docs:end -->"];
const page = readFileSync(table, "utf8");
if (!page.includes(start) || !page.includes(end)) throw new Error(`${table} has no ${start} … ${end} block`);
const block = page.slice(page.indexOf(start) + start.length, page.indexOf(end));
const rows: Record<string, string> = Object.fromEntries(
  block
    .split("\n")
    .filter((line) => /^\| [a-z-]+ \|/.test(line))
    .map((line) => [line.split("|")[1]!.trim(), line]),
);
const header = [
  `| renderer | measured (1-min load average of the machine) | bytes raw / gzip / brotli | first contentful paint | reference rendered | axe serious+critical nodes, 1440 / 390 px | requests outside |`,
  "| --- | --- | --- | --- | --- | --- | --- |",
];

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
try {
  for (const name of Object.keys(builders)) if (!only || only === name) await measure(browser, name);
} finally {
  await browser.close();
  rmSync(scratch, { recursive: true, force: true });
}
const body = [...header, ...Object.keys(builders).flatMap((name) => (rows[name] ? [rows[name]] : []))].join("\n");
writeFileSync(table, `${page.slice(0, page.indexOf(start) + start.length)}\n${body}\n${page.slice(page.indexOf(end))}`);
console.log(`figures written to ${table}`);
