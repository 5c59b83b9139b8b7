// `npm run docs` writes the docs site, a directory, and headless Chromium (Debian's package)
// reads it served alone by a static server (test/docs/static-server.ts), as an integrator
// would. The page is Scalar's API reference (scripts/docs/page.ts). Checked here: every
// operation listed and shown with its samples; each example of each operation chosen on the
// page and every language's sample (curl, JavaScript fetch, Python, Go) copied from the page
// and run against the mock, which must receive exactly that example's body; the try-it
// console sending a request to the mock and showing the answer; Getting started, the
// changelog and versioning sections, the download; search finding every guide section; the
// page's requests on load (none outside its directory, also from disk); Markdown and the
// changelog unable to run script (an injected copy of the page); axe-core at 1440 and 390 px
// in light and dark; a 390 px layout where nothing is wider than the screen and a section
// opened by its link shows its heading. Screenshots land in /tmp/docs-shots/ (DOCS_SHOTS).
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { mockServer } from "../../scripts/docs/page.js";
import { appA } from "../support/demo.js";
import { deref, doc, operations } from "../openapi/document.js";
import { filledIn, languages, runGoSamples, runSample, runTypeScriptSamples, type Language } from "./run-sample.js";
import { chromiumMissing, chromiumPath, realPart } from "../support/real-parts.js";
import { serveDirectory, type StaticServer } from "./static-server.js";

const root = new URL("../../", import.meta.url).pathname;
/** Why the rendering is skipped here (a contributor's machine without Chromium); under CI its absence fails. */
const noBrowser = realPart(chromiumMissing());
const shots = process.env.DOCS_SHOTS ?? "/tmp/docs-shots";
const phoneWidth = 390;
const scratch = mkdtempSync(join(tmpdir(), "docs-"));
const site = join(scratch, "dist/docs");
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The page's globals inside page.evaluate, typed here: the project compiles without the DOM library. */
interface Dom {
  document: any;
  localStorage: Record<string, string>;
  sessionStorage: Record<string, string>;
}
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
/** Each sample language's entry in the page's client picker. */
const clientLabel: Record<Language, string> = {
  curl: "Curl",
  JavaScript: "Fetch",
  Python: "http.client",
  Go: "NewRequest",
  TypeScript: "TypeScript client",
};

// What the page must show, read from the document.
const expected = operations().map(({ method, path, op }) => {
  const examples = op.requestBody
    ? Object.entries<object>(deref(op.requestBody).content["application/json"].examples ?? {}).map(([key, e]) => ({ key, value: (deref(e) as { value: unknown }).value }))
    : [];
  const tsLine = (op["x-codeSamples"].find((s: { lang: string }) => s.lang === "TypeScript").source as string)
    .split("\n")
    .find((l) => /api\.[A-Z]+\(/.test(l))!
    .trim();
  return { method, path, summary: op.summary as string, tag: op.tags[0] as string, route: `tag/${slug(op.tags[0])}/${method}${path}`, examples, tsLine };
});
const guides = ["Getting started", "Authentication", "Errors", "Limits", "Retries and idempotency", "Request ids", "Changelog", "Versions and deprecation"];

let browser: Browser;
let server: StaticServer;
let page: Page;
let mock: RunningMock;
/** A recording front of the mock: every request's method, path and body, then the mock's answer. */
let front: Server;
let frontUrl = "";
const received: { method: string; path: string; body: string; status: number }[] = [];
const consoleErrors: string[] = [];
/** Every request the main page made from its first load on. */
const loadRequests: string[] = [];
const outside: string[] = [];

/** A page that records console errors and refuses (and records) any request leaving the directory. */
async function trackedPage(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, ...options });
  const tracked = await context.newPage();
  tracked.setDefaultTimeout(15_000);
  tracked.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`${tracked.url()}: ${message.text()}`);
  });
  tracked.on("pageerror", (error) => consoleErrors.push(`${tracked.url()}: ${error.message}`));
  await tracked.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(server.url) || url.startsWith("file:") || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    outside.push(url);
    return route.abort();
  });
  return tracked;
}

beforeAll(async () => {
  if (noBrowser !== undefined) return;
  for (const shared of ["generated", "openapi", "node_modules", "scripts", "docs", "CHANGELOG.md"]) symlinkSync(join(root, shared), join(scratch, shared));
  copyFileSync(join(root, "package.json"), join(scratch, "package.json"));
  const built = await new Promise<{ code: number; output: string }>((resolve) =>
    execFile("npm", ["run", "-s", "docs"], { cwd: scratch }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    ),
  );
  expect(built.code, built.output).toBe(0);
  console.log(`npm run docs:\n${built.output}`);
  mkdirSync(shots, { recursive: true });
  server = await serveDirectory(site);
  mock = await startMock({ rateLimit: false, failedAuthLimit: false });
  front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const target = new URL(`${new URL(mock.url).origin}${req.url}`);
      const forward = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        received.push({ method: req.method!, path: req.url!, body: body.toString(), status: answer.statusCode! });
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}/v1`;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await trackedPage();
  page.on("request", (r) => loadRequests.push(r.url()));
  await page.goto(server.url, { waitUntil: "load" });
  await page.getByRole("heading", { name: doc.info.title, exact: true }).first().waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => front?.close(resolve));
  await mock?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const operationOn = (on: Page, route: string) => on.locator(`[id$="${route}"]`).first();

/** Opens an operation by its link (a hash route) and waits for its heading. */
async function open(route: string, summary: string, on: Page = page): Promise<Locator> {
  await on.goto(`${server.url}#${route}`);
  const operation = operationOn(on, route);
  await operation.getByRole("heading", { name: summary, exact: true }).first().waitFor();
  return operation;
}

/** Picks an entry of one of the operation's pickers (the sample's language, or its example). */
async function pick(operation: Locator, picker: "client-picker" | "example-picker", option: string): Promise<void> {
  const button = operation.locator(`[data-testid="${picker}"]`).first();
  // Already chosen (the language stays chosen across operations): nothing to click.
  if ((await button.innerText()).trim().endsWith(option)) return;
  await button.click();
  await operation.page().getByRole("option", { name: option, exact: true }).click();
  await expect.poll(async () => (await button.innerText()).trim().endsWith(option), { message: option }).toBe(true);
}

const sampleText = (operation: Locator) => operation.locator(".code-snippet pre").first().innerText();

describe.skipIf(noBrowser !== undefined)("docs site (dist/docs/), served alone", () => {
  it("is a directory of its own, each text file with its .br and .gz beside it, and a Content-Security-Policy", () => {
    const files = ["docs.css", "docs.js", "favicon.svg", "index.html", "openapi.json", "scalar.js", "search.js"];
    expect(readdirSync(site).sort()).toEqual(files.flatMap((f) => [f, `${f}.br`, `${f}.gz`]).sort());
    for (const file of files) {
      const raw = readFileSync(join(site, file));
      expect(brotliDecompressSync(readFileSync(join(site, `${file}.br`))).equals(raw), file).toBe(true);
      expect(gunzipSync(readFileSync(join(site, `${file}.gz`))).equals(raw), file).toBe(true);
    }
    const html = readFileSync(join(site, "index.html"), "utf8");
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=["']https?:/);
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;|<meta http-equiv="Content-Security-Policy" content="default-src 'none'/,
    );
    expect(html).not.toMatch(/<script>(?!<\/script>)/); // no inline script: the CSP allows none
  });

  it("makes no request outside its directory on load, neither served nor from disk, and no console error", async () => {
    expect(loadRequests.filter((r) => !r.startsWith(server.url) && !r.startsWith("data:"))).toEqual([]);
    expect(loadRequests.length).toBeGreaterThan(3);
    const disk = await trackedPage();
    const requests: string[] = [];
    disk.on("request", (r) => requests.push(r.url()));
    const url = pathToFileURL(join(site, "index.html")).href;
    await disk.goto(url, { waitUntil: "load" });
    await disk.getByRole("heading", { name: doc.info.title, exact: true }).first().waitFor();
    expect(requests.filter((r) => !r.startsWith(pathToFileURL(site).href) && !r.startsWith("data:"))).toEqual([]);
    await disk.context().close();
    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 60_000);

  it("lists the seven areas and every operation in the sidebar on load", async () => {
    const sidebar = page.locator("nav, aside").first();
    expect(new Set(expected.map((e) => e.tag)).size).toBe(7);
    for (const tag of new Set(expected.map((e) => e.tag)))
      await expect.poll(() => sidebar.getByText(tag, { exact: true }).first().isVisible(), { message: tag }).toBe(true);
    for (const { summary } of expected) expect(await sidebar.getByText(summary, { exact: true }).first().isVisible(), summary).toBe(true);
  }, 60_000);

  // Every example of every operation, every language: the text copied from the page, then run.
  const copied: { language: Language; summary: string; example: string; expectedBody: unknown; text: string }[] = [];

  it("shows every operation with its samples: for each example chosen, curl, JavaScript, Python, Go and the TypeScript client (copied for the next test)", async () => {
    // Language by language (the page keeps the chosen language from one operation to the next),
    // every operation, every example chosen in its picker.
    for (const language of languages) {
      for (const { route, summary, method, examples, tsLine } of expected) {
        const operation = await open(route, summary);
        await pick(operation, "client-picker", clientLabel[language]);
        for (const example of examples.length ? examples : [{ key: "", value: undefined }]) {
          if (example.key) await pick(operation, "example-picker", example.key);
          const text = await sampleText(operation);
          if (language === "curl") {
            expect(text, summary).toMatch(new RegExp(`^curl '?${mockServer.replace(/[.]/g, "\\.")}/`));
            if (method !== "GET") expect(text, summary).toContain(`--request ${method}`);
          }
          if (language === "TypeScript") expect(text, summary).toContain(tsLine);
          copied.push({ language, summary, example: example.key, expectedBody: example.value, text: filledIn(text, mockServer, frontUrl, appA) });
          // A non-first example in each language, as a reader sees it.
          if (/survey/i.test(example.key)) {
            await operation.locator(".code-snippet").first().scrollIntoViewIfNeeded();
            await page.screenshot({ path: join(shots, `1440-survey-${language}.png`) });
          }
        }
      }
    }
    const multi = expected.filter((e) => e.examples.length > 1);
    expect(multi.length).toBeGreaterThanOrEqual(3);
    expect(copied.length).toBe(languages.length * expected.reduce((n, e) => n + Math.max(1, e.examples.length), 0));
  }, 240_000);

  it("runs every copied sample against the mock: each succeeds and the mock receives the chosen example's body", async () => {
    expect(copied.length).toBeGreaterThan(0);
    const counts: Record<string, number> = {};
    const check = (sample: (typeof copied)[number], got: (typeof received)[number] | undefined) => {
      const what = `${sample.language} ${sample.summary} ${sample.example}`;
      expect(got, what).toBeDefined();
      expect(got!.status, `${what}: ${got!.body}`).toBeLessThan(300);
      if (sample.expectedBody === undefined) expect(got!.body, what).toBe("");
      else expect(JSON.parse(got!.body), what).toEqual(sample.expectedBody);
      counts[sample.language] = (counts[sample.language] ?? 0) + 1;
    };
    for (const sample of copied.filter((s) => s.language !== "Go" && s.language !== "TypeScript")) {
      const before = received.length;
      await runSample(sample.language as Exclude<Language, "Go" | "TypeScript">, sample.text);
      expect(received.length - before, `${sample.language} ${sample.summary} ${sample.example}`).toBe(1);
      check(sample, received.at(-1));
    }
    const go = copied.filter((s) => s.language === "Go");
    const before = received.length;
    await runGoSamples(go.map((s) => s.text));
    expect(received.length - before).toBe(go.length);
    go.forEach((sample, i) => check(sample, received[before + i]));
    const typescript = copied.filter((s) => s.language === "TypeScript");
    const beforeTs = received.length;
    await runTypeScriptSamples(
      typescript.map((s) => s.text),
      join(scratch, "typescript-samples"),
      root,
      { BASE_URL: frontUrl, API_KEY: appA.apiKey, API_SECRET: appA.apiSecret },
    );
    expect(received.length - beforeTs).toBe(typescript.length);
    typescript.forEach((sample, i) => check(sample, received[beforeTs + i]));
    console.log(
      `samples run against the mock, all passing: ${Object.entries(counts)
        .map(([l, n]) => `${l} ${n}`)
        .join(", ")}`,
    );
    for (const language of languages) expect(counts[language]).toBe(copied.length / languages.length);
  }, 300_000);

  for (const width of [1440, phoneWidth]) {
    it(`the try-it console at ${width} px sends a request to the mock with the credentials typed in, and shows status, headers and body`, async () => {
      const consolePage = await trackedPage({ viewport: { width, height: width === 1440 ? 1000 : 844 } });
      // The page's preset server is the mock's usual address; the test's mock listens elsewhere.
      const sent: { url: string; authorization?: string }[] = [];
      await consolePage.route(`${mockServer}/**`, async (route) => {
        sent.push({ url: route.request().url(), authorization: route.request().headers().authorization });
        const response = await route.fetch({ url: route.request().url().replace(mockServer, frontUrl) });
        await route.fulfill({ response });
      });
      const { route, summary } = expected.find((e) => e.method === "GET" && e.path === "/webhooks")!;
      const operation = await open(route, summary, consolePage);
      await operation.getByRole("button", { name: "Test Request" }).click();
      const dialog = consolePage.getByRole("dialog").first();
      await dialog.getByPlaceholder("Token").first().fill(appA.apiKey);
      await dialog
        .getByRole("button", { name: /^Send get request/ })
        .first()
        .click();
      await expect.poll(() => dialog.innerText(), { timeout: 20_000 }).toMatch(/200/);
      await expect.poll(() => dialog.innerText()).toContain("api.application.webhook.find");
      expect(sent).toHaveLength(1);
      expect(sent[0]!.url).toBe(`${mockServer}/webhooks?limit=10&page=1`);
      expect(sent[0]!.authorization).toBe(`Bearer ${appA.apiKey}`);
      await consolePage.screenshot({ path: join(shots, `${width}-console-webhooks.png`) });
      // Kept in memory only: not in the URL, not in any storage.
      expect(consolePage.url()).not.toContain(appA.apiKey);
      const stored = await consolePage.evaluate(
        () =>
          JSON.stringify({ ...(globalThis as unknown as Dom).localStorage }) +
          JSON.stringify({ ...(globalThis as unknown as Dom).sessionStorage }) +
          (globalThis as unknown as Dom).document.cookie,
      );
      expect(stored).not.toContain(appA.apiKey);
      await consolePage.context().close();
    }, 90_000);
  }

  it("takes screenshots of a non-first example (POST /notifications, the SURVEY example) in each language at 390 px", async () => {
    const { route, summary, examples } = expected.find((e) => e.method === "POST" && e.path === "/notifications")!;
    const survey = examples.find((e) => /survey/i.test(e.key))!;
    expect(examples.indexOf(survey)).toBeGreaterThan(0);
    for (const width of [phoneWidth]) {
      const on = await trackedPage({ viewport: { width, height: 844 } });
      const operation = await open(route, summary, on);
      await pick(operation, "example-picker", survey.key);
      for (const language of languages) {
        await pick(operation, "client-picker", clientLabel[language]);
        expect(await sampleText(operation)).toContain('"SURVEY"'.replace(/"/g, language === "JavaScript" ? "'" : '"'));
        await operation.locator(".code-snippet").first().scrollIntoViewIfNeeded();
        await on.screenshot({ path: join(shots, `${width}-survey-${language}.png`) });
      }
      await on.context().close();
    }
  }, 120_000);

  it("starts with Getting started: the base URLs, both local servers with their packages, the first call", async () => {
    await page.goto(`${server.url}#description/getting-started`);
    const text = await page.locator("body").innerText();
    const section = text.slice(text.indexOf("Base URLs"), text.indexOf("Every success answers"));
    expect(section.length).toBeGreaterThan(100);
    expect(doc.servers).toHaveLength(3);
    for (const { url } of doc.servers) expect(section, url).toContain(url);
    for (const words of ["npx authsvc-api mock", "@authsvc/app-api-mock", "npx authsvc-api serve", "@authsvc/app-api-server"]) expect(section).toContain(words);
    expect(section).toContain("export BASE_URL=http://127.0.0.1:4010/v1");
  });

  it("shows the changelog and the versioning policy, rendered from CHANGELOG.md and docs/versioning.md", async () => {
    const text = await page.locator("body").innerText();
    const releases = [...readFileSync(join(root, "CHANGELOG.md"), "utf8").matchAll(/^## \[(.+?)\]/gm)].map((m) => m[1]!);
    expect(releases.length).toBeGreaterThan(0);
    for (const release of releases) expect(text).toContain(release);
    const policy = readFileSync(join(root, "docs/versioning.md"), "utf8");
    const bullets = [...policy.slice(policy.indexOf("## The policy for integrators")).matchAll(/^- \*\*(.+?)\*\*/gm)].map((m) => m[1]!);
    expect(bullets.length).toBeGreaterThan(2);
    for (const bullet of bullets) expect(text).toContain(bullet);
  });

  it("offers the bundled document for download, unchanged: the file, and what the page's Download button gives", async () => {
    const bundled = JSON.parse(readFileSync(join(root, "generated/openapi.json"), "utf8"));
    expect(JSON.parse(readFileSync(join(site, "openapi.json"), "utf8"))).toEqual(bundled);
    await page.goto(`${server.url}#description/introduction`);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page
        .getByRole("button", { name: /Download OpenAPI Document/ })
        .first()
        .click(),
    ]);
    expect(download.suggestedFilename()).toBe("openapi.json");
    expect(JSON.parse(readFileSync((await download.path())!, "utf8"))).toEqual(bundled);
  });

  it("search finds every guide section by its words, each hit a working deep link", async () => {
    // The words a reader would type, not the title itself where the title is one word.
    const queries: Record<string, string> = {
      "Getting started": "getting started",
      Authentication: "authentication",
      Errors: "errors",
      Limits: "limits",
      "Retries and idempotency": "idempotency",
      "Request ids": "request id",
      Changelog: "changelog",
      "Versions and deprecation": "deprecation",
    };
    expect(Object.keys(queries)).toEqual(guides);
    for (const title of guides) {
      await page.goto(`${server.url}#tag/webhooks`);
      await page.keyboard.press("Control+k");
      const input = page.getByRole("combobox").or(page.locator('input[type="search"], input[placeholder*="Search" i]')).first();
      await input.fill(queries[title]!);
      await page.getByRole("option").filter({ hasText: title }).first().click();
      await expect.poll(() => decodeURIComponent(new URL(page.url()).hash), { message: title }).toBe(`#description/${slug(title)}`);
      await expect.poll(() => inView(page.getByRole("heading", { name: title, exact: true }).first()), { message: title, timeout: 15_000 }).toBe(true);
    }
    // The words of a status or header reach the part of Limits that explains them, not only the operations that answer them.
    for (const [query, heading] of [
      ["429", "Rate limit: 429 and Retry-After"],
      ["Retry-After", "Rate limit: 429 and Retry-After"],
      ["failed authentication", "Failed authentication: 401, then 429"],
    ]) {
      await page.goto(`${server.url}#tag/webhooks`);
      await page.keyboard.press("Control+k");
      const input = page.getByRole("combobox").or(page.locator('input[type="search"], input[placeholder*="Search" i]')).first();
      await input.fill(query!);
      await page.getByRole("option").filter({ hasText: heading! }).first().click();
      await expect.poll(() => inView(page.getByRole("heading", { name: heading, exact: true }).first()), { message: query, timeout: 15_000 }).toBe(true);
    }
  }, 120_000);

  it("search finds a guide section by words found only in its text, each hit a working deep link; a word not on the page finds nothing", async () => {
    /** A `## title` section's text in the document's introduction, without its heading. */
    const textOf = (title: string) => {
      const description = doc.info.description as string;
      const start = description.indexOf(`## ${title}\n`);
      expect(start, title).toBeGreaterThanOrEqual(0);
      return description.slice(start + title.length + 4, description.indexOf("\n## ", start + 3)).toLowerCase();
    };
    const searchFor = async (on: Page, query: string) => {
      await on.keyboard.press("Control+k");
      const dialog = on.getByRole("dialog").first();
      await dialog.getByRole("combobox").first().fill(query);
      return dialog;
    };
    const guidesText = (dialog: Locator) => dialog.getByRole("group", { name: "Found in the guides' text" }).getByRole("link");
    for (const [query, title] of [
      ["backoff", "Retries and idempotency"],
      ["duplicate acceptable", "Retries and idempotency"],
      ["128 characters", "Request ids"],
    ] as const) {
      // Words of the section's text, not of its heading (which Scalar's own index covers).
      for (const word of query.split(" ")) {
        expect(textOf(title), `${title}: ${word}`).toContain(word);
        expect(title.toLowerCase()).not.toContain(word);
      }
      await page.goto(`${server.url}#tag/webhooks`);
      const dialog = await searchFor(page, query);
      const hits = guidesText(dialog);
      await hits.filter({ hasText: title }).first().waitFor();
      // Every hit shows a word of the query, marked, in the text around it.
      for (const mark of await dialog.locator(".docs-text-hits mark").allInnerTexts()) expect(query.split(" ")).toContain(mark.toLowerCase());
      if (query === "backoff") {
        await page.waitForTimeout(600); // the dialog fades in
        await page.screenshot({ path: join(shots, "1440-search-body-word.png") });
        // The added group passes axe-core like the rest of the page, in light and dark.
        await page.evaluate(axeSource);
        for (const colorScheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme });
          const severe = await page.evaluate(async () => {
            const { axe } = globalThis as unknown as { axe: { run(context: unknown): Promise<{ violations: { id: string; impact: string }[] }> } };
            const result = await axe.run({ include: [[".docs-text-hits"]] });
            return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
          });
          expect(severe, `axe on the guides' text hits, ${colorScheme}`).toEqual([]);
        }
        await page.emulateMedia({ colorScheme: "light" });
      }
      await hits.filter({ hasText: title }).first().click();
      await expect.poll(() => decodeURIComponent(new URL(page.url()).hash), { message: query }).toBe(`#description/${slug(title)}`);
      await expect.poll(() => page.getByRole("dialog").count(), { message: "the dialog closes" }).toBe(0);
      await expect.poll(() => inView(page.getByRole("heading", { name: title, exact: true }).first()), { message: query, timeout: 15_000 }).toBe(true);
    }
    // Known bad: a word on no page finds nothing, and the hits of the previous query go.
    await page.goto(`${server.url}#tag/webhooks`);
    const dialog = await searchFor(page, "backoff");
    await expect.poll(() => guidesText(dialog).count()).toBeGreaterThan(0);
    await dialog.getByRole("combobox").first().fill("zqxjvkwy");
    await expect.poll(() => guidesText(dialog).count()).toBe(0);
    expect(await dialog.getByRole("option").count()).toBe(0);
    await page.keyboard.press("Escape");
    // At phone width too.
    const phone = await trackedPage({ viewport: { width: phoneWidth, height: 844 } });
    await phone.goto(`${server.url}#tag/webhooks`, { waitUntil: "load" });
    await phone.getByRole("heading", { name: doc.info.title, exact: true }).first().waitFor({ state: "attached" });
    const onPhone = await searchFor(phone, "backoff");
    await guidesText(onPhone).filter({ hasText: "Retries and idempotency" }).first().waitFor();
    await phone.waitForTimeout(600);
    await phone.screenshot({ path: join(shots, `${phoneWidth}-search-body-word.png`) });
    await guidesText(onPhone).filter({ hasText: "Retries and idempotency" }).first().click();
    await expect.poll(() => inView(phone.getByRole("heading", { name: "Retries and idempotency", exact: true }).first()), { timeout: 15_000 }).toBe(true);
    await phone.context().close();
  }, 120_000);

  it("runs nothing from Markdown: script, iframe srcdoc, event handlers and javascript: links in the description and the changelog", async () => {
    // A copy of the page whose introduction and changelog carry what a careless hand might paste.
    const hostile = [
      `<script>document.title = "pwned-script"</script>`,
      `<iframe srcdoc="<script>parent.document.title = 'pwned-iframe'</script>"></iframe>`,
      `<img src="x" onerror="document.title = 'pwned-onerror'">`,
      `<a href="javascript:document.title='pwned-html-link'" id="html-js-link">html link</a>`,
      `[markdown link](javascript:document.title='pwned-md-link')`,
      `<svg><script>document.title = "pwned-svg"</script></svg>`,
    ];
    const copy = join(scratch, "hostile");
    mkdirSync(copy, { recursive: true });
    for (const name of ["scalar.js", "docs.js", "search.js", "docs.css", "favicon.svg"]) copyFileSync(join(site, name), join(copy, name));
    const html = readFileSync(join(site, "index.html"), "utf8");
    const data = /<script id="openapi-document" type="application\/json">(.*?)<\/script>/s.exec(html)!;
    const document = JSON.parse(data[1]!);
    document.info.description = document.info.description.replace("## Changelog", `Injected: ${hostile.join("\n\n")}\n\n## Changelog\n\n${hostile.join("\n\n")}`);
    writeFileSync(join(copy, "index.html"), html.replace(data[1]!, JSON.stringify(document).replace(/</g, "\\u003c")));
    const hostileServer = await serveDirectory(copy);
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    const on = await context.newPage();
    const violations: string[] = [];
    on.on("console", (m) => /Content Security Policy/.test(m.text()) && violations.push(m.text()));
    await on.goto(`${hostileServer.url}#description/changelog`, { waitUntil: "load" });
    await on.getByText("Injected:").first().waitFor();
    for (const link of await on.locator("a", { hasText: /^(markdown link|html link)$/ }).all()) await link.click({ timeout: 2_000 }).catch(() => undefined);
    await on.waitForTimeout(1_000);
    expect(await on.title()).toBe(doc.info.title);
    expect(await on.locator("#app iframe, #app script, #app [onerror]").count()).toBe(0);
    expect(await on.locator('#app a[href^="javascript:"]').count()).toBe(0);
    console.log(`injection cases (none ran): ${hostile.length}; CSP reports: ${violations.length}`);
    await context.close();
    await hostileServer.close();
  }, 60_000);

  /** axe-core's serious and critical violations on the page as it is, in light then in dark (the system's setting). */
  async function axeBothThemes(on: Page, width: number): Promise<void> {
    await on.goto(`${server.url}#tag/notifications/POST/notifications`);
    await on.getByRole("heading", { name: "Schedule an in-app notification", exact: true }).first().waitFor();
    await on.evaluate(axeSource);
    for (const colorScheme of ["light", "dark"] as const) {
      await on.emulateMedia({ colorScheme });
      await expect
        .poll(() => on.evaluate(() => (globalThis as unknown as Dom).document.body.classList.contains("dark-mode")), { message: "follows the system's setting" })
        .toBe(colorScheme === "dark");
      const violations = await on.evaluate(async () => {
        const result = await (
          globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }
        ).axe.run();
        return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, first: v.nodes[0]?.target.join(" ") }));
      });
      const severe = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      console.log(
        `axe ${width} px ${colorScheme}: ${severe.length} serious/critical rules; lesser: ${JSON.stringify(violations.filter((v) => !severe.includes(v)).map((v) => `${v.id} (${v.impact}, ${v.nodes})`))}`,
      );
      expect(severe, `${width} px ${colorScheme}`).toEqual([]);
    }
    await on.emulateMedia({ colorScheme: "light" });
  }

  it("axe-core at 1440 px, light then dark: no serious or critical violation, the system's setting followed", () => axeBothThemes(page, 1440), 90_000);

  describe(`at ${phoneWidth} px`, () => {
    let phone: Page;
    beforeAll(async () => {
      phone = await trackedPage({ viewport: { width: phoneWidth, height: 844 } });
    });
    afterAll(() => phone?.context().close());

    it(`axe-core at ${phoneWidth} px, light then dark: no serious or critical violation`, () => axeBothThemes(phone, phoneWidth), 90_000);
    it.each(["", "tag/notifications/POST/notifications", "tag/sms-providers/PUT/sms/providers/{id}", "description/changelog"])(
      "nothing is wider than the screen on '#%s'",
      async (route) => {
        await phone.goto(`${server.url}#${route}`, { waitUntil: "load" });
        await phone.locator("h1, h2").first().waitFor();
        await phone.waitForTimeout(1_000);
        const width = await phone.evaluate(() => [
          (globalThis as unknown as Dom).document.documentElement.scrollWidth,
          (globalThis as unknown as Dom).document.documentElement.clientWidth,
        ]);
        expect(width[0]).toBeLessThanOrEqual(width[1]! + 1);
      },
      60_000,
    );

    it.each(["limits", "errors", "changelog"])(
      "a section opened by its link (#description/%s) shows its heading, not under the top bar",
      async (section) => {
        await phone.goto("about:blank");
        await phone.goto(`${server.url}#description/${section}`, { waitUntil: "load" });
        const heading = phone.locator(`[id$="description/${section}"]`).first();
        await expect.poll(() => inView(heading), { timeout: 15_000 }).toBe(true);
        const box = (await heading.boundingBox())!;
        const atTop = await phone.evaluate(
          ([x, y]) => (globalThis as unknown as Dom).document.elementFromPoint(x!, y!)?.closest("h1, h2, h3")?.textContent ?? null,
          [box.x + 4, box.y + box.height / 2],
        );
        expect(atTop, "the heading is what the reader sees at its place").not.toBeNull();
        await phone.screenshot({ path: join(shots, `390-${section}.png`) });
      },
      60_000,
    );
  });

  it("over the whole run: no console error, no request outside the directory, no 404", () => {
    expect(consoleErrors).toEqual([]);
    expect(outside).toEqual([]);
    expect(server.served.filter((s) => s.status === 404)).toEqual([]);
  });
});

async function inView(locator: Locator): Promise<boolean> {
  if (!(await locator.isVisible().catch(() => false))) return false;
  const viewport = locator.page().viewportSize()!;
  const box = await locator.boundingBox({ timeout: 1_000 }).catch(() => null);
  return box !== null && box.y >= 0 && box.y < viewport.height;
}
