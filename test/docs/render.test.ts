// `npm run docs` writes one standalone HTML file (plus the openapi.json its Download link
// serves), and headless Chromium (Debian's package) renders it offline: Getting started with
// the three base URLs, every operation's summary reachable from the sidebar as a heading
// with its curl and TypeScript samples and listed there on load (every tag section open), a
// curl sample showing every named request example's body, and a 390 px phone layout where nothing is wider than the screen and no
// error code breaks inside a word.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { doc, operations } from "../openapi/document.js";

const root = new URL("../../", import.meta.url).pathname;
const chromiumPath = "/usr/bin/chromium";
const screenshot = "/tmp/docs-render.png";
const phoneWidth = 390;
const scratch = mkdtempSync(join(tmpdir(), "docs-"));
const html = join(scratch, "dist/docs/index.html");

// What the page must show, read from the document: summary, tag and the two samples.
const expected = operations().map(({ op }) => {
  const sample = (lang: string): string => op["x-codeSamples"].find((s: { lang: string }) => s.lang === lang).source;
  // A line of each sample that names this operation (the request line, not the imports).
  // Any method the client has (GET, PUT, POST, DELETE, PATCH, ...), not only those the document uses today.
  const tsLine = sample("TypeScript").split("\n").find((l: string) => /api\.[A-Z]+\(/.test(l))!.trim();
  return { summary: op.summary as string, tag: op.tags[0] as string, curlLine: sample("curl").split("\n")[0]!.trim(), tsLine };
});

// Every curl sample that sends a body, with its dropdown label and the `-d` line it shows:
// together they carry every named request example (test/samples checks the bodies).
const bodySamples = operations().flatMap(({ op }) =>
  op["x-codeSamples"]
    .filter((s: { lang: string; source: string }) => s.lang === "curl" && s.source.includes(" -d '"))
    .map((s: { label: string; source: string }) => ({
      summary: op.summary as string,
      tag: op.tags[0] as string,
      label: s.label,
      dataLine: s.source.split("\n").find((l) => l.trim().startsWith("-d '"))!.trim(),
    })),
);

let browser: Browser;
let page: Page;
let built = { code: -1, output: "" };

beforeAll(async () => {
  // Build through the npm script itself, in a scratch directory, so the flags are package.json's.
  for (const shared of ["generated", "openapi", "node_modules"]) symlinkSync(join(root, shared), join(scratch, shared));
  copyFileSync(join(root, "package.json"), join(scratch, "package.json"));
  built = await new Promise((resolve) =>
    execFile("npm", ["run", "-s", "docs"], { cwd: scratch, env: { ...process.env, REDOCLY_TELEMETRY: "off" } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    ),
  );
  expect(built.code, built.output).toBe(0);
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing: apt-get install -y chromium (.ci/run does this)`);
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(10_000);
  // Offline, as a reader without network would open it: only the file itself may load.
  await page.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
  await page.goto(pathToFileURL(html).href, { waitUntil: "load" });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Whether the element is inside the viewport (visible to a reader, not just laid out). */
async function inViewport(locator: Locator): Promise<boolean> {
  if (!(await locator.isVisible())) return false;
  const viewport = page.viewportSize()!;
  const box = await locator.boundingBox({ timeout: 1_000 }).catch(() => null); // relative to the viewport's top-left
  return box !== null && box.width > 0 && box.height > 0 && box.y + box.height > 0 && box.y < viewport.height;
}

/** Redoc scrolls and lays a panel out after navigation or a click: wait for it to settle in view. */
const expectInView = (locator: Locator, what?: string) =>
  expect.poll(() => inViewport(locator), { timeout: 15_000, message: what }).toBe(true);

const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

/** Opens an operation from the sidebar, as a reader would; returns its heading. */
async function open(tag: string, summary: string): Promise<Locator> {
  const item = page.locator(".menu-item-type-operation").getByText(summary, { exact: true });
  if (!(await item.isVisible())) await page.locator(".menu-item-type-group").getByText(tag, { exact: true }).first().click();
  await item.click();
  return page.locator("h2").filter({ hasText: exactly(summary) });
}

/**
 * Chooses a sample in the open operation's language dropdown. Redoc may re-render the panel
 * while it settles after navigation, closing an open dropdown under the click; the whole
 * open-and-choose step is retried until the choice lands.
 */
async function chooseSample(label: string): Promise<void> {
  const menu = page.locator("button").filter({ hasText: /^curl(: .*)?$|^TypeScript client$/ }).first();
  const item = page.getByRole("menuitem", { name: label, exact: true });
  await vi.waitFor(
    async () => {
      if (!(await item.isVisible())) await menu.click({ timeout: 2_000 });
      await item.click({ timeout: 2_000 });
    },
    { timeout: 20_000, interval: 100 },
  );
}

/** The visible code block holding `line` (the samples are highlighted into spans). */
const codeBlock = (line: string) => page.locator("pre").filter({ hasText: line }).first();

describe("rendered reference (dist/docs/index.html)", () => {
  it("is one standalone HTML file: no script or stylesheet fetched from elsewhere", () => {
    expect(readdirSync(join(scratch, "dist/docs")).sort()).toEqual(["index.html", "openapi.json"]);
    const text = readFileSync(html, "utf8");
    expect(text).not.toMatch(/<script[^>]+src=["']https?:/);
    expect(text).not.toMatch(/<link[^>]+rel=["'](modulepreload|stylesheet)["'][^>]+href=["']https?:/);
  });

  it("lists the seven areas in the sidebar", async () => {
    const groups = await page.locator(".menu-item-type-group").allInnerTexts();
    for (const tag of new Set(expected.map((e) => e.tag))) expect(groups.map((g) => g.split("\n")[0])).toContain(tag);
  });

  it("opens every tag section on load: each operation is listed in the sidebar without a click", async () => {
    // Before any test clicks: the page as a reader first sees it.
    const sidebar = page.locator(".menu-item-type-operation");
    await expect.poll(() => sidebar.count(), { timeout: 10_000 }).toBe(expected.length);
    for (const { summary } of expected) expect(await sidebar.getByText(summary, { exact: true }).isVisible(), summary).toBe(true);
    expect(page.url(), "opening the sections does not navigate").not.toContain("#");
  });

  it.each(expected)("shows '$summary' with its curl sample", async ({ tag, summary, curlLine }) => {
    const heading = await open(tag, summary);
    await expectInView(heading);
    await expectInView(codeBlock(curlLine));
  }, 60_000);

  it("shows the TypeScript client sample of every operation once chosen", async () => {
    const [first] = expected;
    await open(first!.tag, first!.summary);
    await chooseSample("TypeScript client");
    for (const { tag, summary, tsLine } of expected) {
      await open(tag, summary);
      await expectInView(codeBlock(tsLine), summary);
    }
    await open("Notifications", expected.find((e) => e.tag === "Notifications")!.summary);
    await page.screenshot({ path: screenshot });
  }, 120_000);

  it("starts with Getting started: the three base URLs, the demo export block and the first call", async () => {
    await page.goto(pathToFileURL(html).href, { waitUntil: "load" });
    const heading = page.locator("h1, h2").filter({ hasText: exactly("Getting started") }).first();
    await heading.scrollIntoViewIfNeeded();
    await expectInView(heading);
    const text = await page.locator("body").innerText();
    const section = text.slice(text.indexOf("Getting started"));
    expect(doc.servers).toHaveLength(3);
    for (const { url } of doc.servers) expect(section, url).toContain(url);
    expect(section).toContain("export BASE_URL=http://127.0.0.1:4010/v1");
    expect(section).toContain('"$BASE_URL/widgets/wgt_5a3c8e1f7b92"');
  });

  it("offers the bundled document for download, and the link serves it", async () => {
    const link = page.locator("a[download]").filter({ hasText: "openapi.json" }).first();
    const href = await link.getAttribute("href");
    const target = new URL(href!, page.url());
    expect(target.protocol).toBe("file:");
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual(JSON.parse(readFileSync(join(root, "generated/openapi.json"), "utf8")));
  });

  it.each(bodySamples)("shows '$summary' with the body of '$label'", async ({ tag, summary, label, dataLine }) => {
    await open(tag, summary);
    await chooseSample(label);
    await expectInView(codeBlock(dataLine));
  }, 60_000);

  it("renders the body-level rules of POST /notifications above its fields", async () => {
    const { op } = operations().find(({ op }) => op.operationId === "createNotification")!;
    await open(op.tags[0], op.summary);
    // The words before the first code span, which renders without its backticks.
    const rules = page.getByText((op.requestBody.description as string).split("`")[0]!.trim()).first();
    await rules.scrollIntoViewIfNeeded();
    await expectInView(rules);
  }, 60_000);

  describe(`at ${phoneWidth} px`, () => {
    let phone: Page;
    beforeAll(async () => {
      phone = await browser.newPage({ viewport: { width: phoneWidth, height: 844 } });
      phone.setDefaultTimeout(10_000);
      await phone.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
    });
    afterAll(() => phone?.close());

    /** Elements (not fixed overlays) whose right edge is past the screen's. */
    const overflowing = () =>
      phone.locator("body *").evaluateAll((elements) => {
        // The project compiles without the DOM library; the page's window is typed here.
        const page = globalThis as unknown as {
          document: { documentElement: { clientWidth: number } };
          getComputedStyle(element: unknown): { position: string };
        };
        const width = page.document.documentElement.clientWidth;
        return elements
          .filter((e) => {
            const box = e.getBoundingClientRect();
            return box.width > 0 && box.right > width + 1 && page.getComputedStyle(e).position !== "fixed";
          })
          .slice(0, 5)
          .map((e) => `${e.tagName} ${Math.round(e.getBoundingClientRect().right)}px: ${e.textContent?.slice(0, 60)}`);
      });

    it.each(["", "#/notifications/createnotification", "#/sms-providers/updatesmsprovider"])("nothing is wider than the screen on '%s'", async (route) => {
      await phone.goto(pathToFileURL(html).href + route, { waitUntil: "load" });
      await phone.locator("h1, h2").first().waitFor();
      expect(await overflowing()).toEqual([]);
    }, 60_000);

    it("breaks no error code inside a word", async () => {
      await phone.goto(pathToFileURL(html).href, { waitUntil: "load" });
      const codes = phone.locator("table code").filter({ hasText: /^[a-z]+(_[a-z]+)+$|^[a-z]+$/ });
      await codes.first().waitFor();
      const lines = await codes.evaluateAll((els) => els.map((e) => [e.textContent, e.getClientRects().length] as const));
      expect(lines.map(([code]) => code)).toContain("unsupported_media_type");
      expect(lines.filter(([, n]) => n !== 1)).toEqual([]);
    }, 60_000);
  });
});
