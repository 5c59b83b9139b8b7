// `npm run docs` writes the docs site, a directory, and headless Chromium (Debian's package)
// reads it served alone by a static server (test/docs/static-server.ts), as an integrator
// would: every operation reachable from the sidebar with its samples (the request body
// following the Example dropdown, as formatted JSON; response samples expanded), Getting
// started, the changelog and versioning sections, the download, anchors that work in a new
// tab, without JavaScript and from disk, every link checked (no 404, no console error, no
// request outside the directory), and a 390 px phone layout where nothing is wider than the
// screen, no error code breaks inside a word and the menu and copy buttons cover no text.
// Screenshots land in /tmp/docs-shots/.
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { deref, doc, operations } from "../openapi/document.js";
import { chromiumMissing, chromiumPath, realPart } from "../support/real-parts.js";
import { serveDirectory, type StaticServer } from "./static-server.js";

const root = new URL("../../", import.meta.url).pathname;
/** Why the rendering is skipped here (a contributor's machine without Chromium); under CI its absence fails. */
const noBrowser = realPart(chromiumMissing());
const shots = "/tmp/docs-shots";
const phoneWidth = 390;
const scratch = mkdtempSync(join(tmpdir(), "docs-"));
const site = join(scratch, "dist/docs");

// What the page must show, read from the document: summary, tag and the two samples.
const expected = operations().map(({ op }) => {
  const sample = (lang: string): string => op["x-codeSamples"].find((s: { lang: string }) => s.lang === lang).source;
  // A line of each sample that names this operation (the request line, not the imports).
  // Any method the client has (GET, PUT, POST, DELETE, PATCH, ...), not only those the document uses today.
  const tsLine = sample("TypeScript")
    .split("\n")
    .find((l: string) => /api\.[A-Z]+\(/.test(l))!
    .trim();
  return { summary: op.summary as string, tag: op.tags[0] as string, curlLine: sample("curl").split("\n")[0]!.trim(), tsLine };
});

// Every operation with more than one named request example, with each example's summary and value.
const multiExample = operations()
  .map(({ op }) => ({
    summary: op.summary as string,
    tag: op.tags[0] as string,
    examples: Object.values(op.requestBody ? (deref(op.requestBody).content["application/json"].examples ?? {}) : {}).map(
      (e) => deref(e) as { summary: string; value: unknown },
    ),
  }))
  .filter(({ examples }) => examples.length > 1);

let browser: Browser;
let server: StaticServer;
let page: Page;
let built = { code: -1, output: "" };
/** Console errors, uncaught page errors and requests outside the directory, over every page of the run. */
const consoleErrors: string[] = [];
const outside: string[] = [];

/** A page that records its console errors and any request that leaves the directory. */
async function trackedPage(viewport = { width: 1440, height: 1000 }, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ viewport, javaScriptEnabled });
  const tracked = await context.newPage();
  tracked.setDefaultTimeout(10_000);
  tracked.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`${tracked.url()}: ${message.text()}`);
  });
  tracked.on("pageerror", (error) => consoleErrors.push(`${tracked.url()}: ${error.message}`));
  // Nothing outside the directory may load: such a request is recorded and refused.
  await tracked.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(server.url) || url.startsWith("file:") || url.startsWith("blob:") || url.startsWith("data:")) return route.continue();
    outside.push(url);
    return route.abort();
  });
  return tracked;
}

beforeAll(async () => {
  if (noBrowser !== undefined) return;
  // Build through the npm script itself, in a scratch directory, so the flags are package.json's.
  for (const shared of ["generated", "openapi", "node_modules", "scripts", "docs", "CHANGELOG.md"]) symlinkSync(join(root, shared), join(scratch, shared));
  copyFileSync(join(root, "package.json"), join(scratch, "package.json"));
  built = await new Promise((resolve) =>
    execFile("npm", ["run", "-s", "docs"], { cwd: scratch, env: { ...process.env, REDOCLY_TELEMETRY: "off" } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    ),
  );
  expect(built.code, built.output).toBe(0);
  mkdirSync(shots, { recursive: true });
  server = await serveDirectory(site);
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
  await page.goto(server.url, { waitUntil: "load" });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Whether the element is inside the viewport (visible to a reader, not just laid out). */
async function inViewport(locator: Locator): Promise<boolean> {
  if (!(await locator.isVisible())) return false;
  const viewport = locator.page().viewportSize()!;
  const box = await locator.boundingBox({ timeout: 1_000 }).catch(() => null); // relative to the viewport's top-left
  return box !== null && box.width > 0 && box.height > 0 && box.y + box.height > 0 && box.y < viewport.height;
}

/** Redoc scrolls and lays a panel out after navigation or a click: wait for it to settle in view. */
const expectInView = (locator: Locator, what?: string) => expect.poll(() => inViewport(locator), { timeout: 15_000, message: what }).toBe(true);

const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

/** Opens an operation from the sidebar, as a reader would; returns its heading. */
async function open(tag: string, summary: string, on: Page = page): Promise<Locator> {
  const item = on.locator(".menu-item-type-operation").getByText(summary, { exact: true });
  if (!(await item.isVisible())) await on.locator(".menu-item-type-group").getByText(tag, { exact: true }).first().click();
  await item.click();
  return on.locator("h2").filter({ hasText: exactly(summary) });
}

/**
 * Chooses an entry of a menu button in the open operation's request samples (the language, or
 * the Example). Redoc may re-render the panel while it settles after navigation, closing an
 * open dropdown under the click; the whole open-and-choose step is retried until it lands.
 */
async function chooseFromMenu(menu: Locator, label: string, on: Page): Promise<void> {
  const item = on.getByRole("menuitem", { name: label, exact: true });
  await vi.waitFor(
    async () => {
      if (!(await item.isVisible())) await menu.click({ timeout: 2_000 });
      await item.click({ timeout: 2_000 });
    },
    { timeout: 20_000, interval: 100 },
  );
}

const requestSamples = (on: Page) => on.locator(".panel-request-samples").filter({ visible: true }).first();

/** Chooses a sample language (Payload, curl, TypeScript client) of the open operation. */
const chooseSample = (label: string, on: Page = page) =>
  chooseFromMenu(
    requestSamples(on)
      .locator("button")
      .filter({ hasText: /^(Payload|curl|TypeScript client)$/ })
      .first(),
    label,
    on,
  );

/** Chooses a named request example of the open operation in its Example dropdown. */
const chooseExample = (summaries: string[], summary: string, on: Page = page) =>
  chooseFromMenu(
    requestSamples(on)
      .locator("button")
      .filter({ hasText: new RegExp(summaries.map((s) => exactly(s).source).join("|")) })
      .first(),
    summary,
    on,
  );

/** The visible code block holding `line` (the samples are highlighted into spans). */
const codeBlock = (line: string, on: Page = page) => on.locator("pre").filter({ hasText: line }).first();

/** The request body panel's text without whitespace, and the example value the same way. */
const squeezed = (text: string) => text.replace(/\s+/g, "");

describe.skipIf(noBrowser !== undefined)("docs site (dist/docs/), served alone", () => {
  it("is a directory of its own: the page, the document, the favicon and the attribution logo", () => {
    expect(readdirSync(site).sort()).toEqual(["favicon.svg", "index.html", "openapi.json", "redocly-logo.svg"]);
    const text = readFileSync(join(site, "index.html"), "utf8");
    expect(text).not.toMatch(/<script[^>]+src=["']https?:/);
    expect(text).not.toMatch(/<link[^>]+href=["']https?:/);
    expect(text).toContain('<link rel="icon" href="favicon.svg"');
  });

  it("lists the seven areas in the sidebar", async () => {
    const groups = await page.locator(".menu-item-type-group").allInnerTexts();
    expect(new Set(expected.map((e) => e.tag)).size).toBe(7);
    for (const tag of new Set(expected.map((e) => e.tag))) expect(groups.map((g) => g.split("\n")[0])).toContain(tag);
  });

  it("opens every tag section on load: each operation is listed in the sidebar without a click", async () => {
    // Before any test clicks: the page as a reader first sees it.
    const sidebar = page.locator(".menu-item-type-operation");
    await expect.poll(() => sidebar.count(), { timeout: 10_000 }).toBe(expected.length);
    for (const { summary } of expected) expect(await sidebar.getByText(summary, { exact: true }).isVisible(), summary).toBe(true);
    expect(page.url(), "opening the sections does not navigate").not.toContain("#");
  });

  it("shows every operation's heading and its curl sample once curl is chosen", async () => {
    const [first] = expected;
    await open(first!.tag, first!.summary);
    await chooseSample("curl");
    for (const { tag, summary, curlLine } of expected) {
      await expectInView(await open(tag, summary), summary);
      await expectInView(codeBlock(curlLine), summary);
    }
  }, 120_000);

  it("shows the TypeScript client sample of every operation once chosen", async () => {
    const [first] = expected;
    await open(first!.tag, first!.summary);
    await chooseSample("TypeScript client");
    for (const { tag, summary, tsLine } of expected) {
      await open(tag, summary);
      await expectInView(codeBlock(tsLine), summary);
    }
  }, 120_000);

  it.each(multiExample)(
    "'$summary': the request body shown follows the Example dropdown, as formatted JSON",
    async ({ tag, summary, examples }) => {
      expect(examples.length).toBeGreaterThan(1);
      await open(tag, summary);
      await chooseSample("Payload");
      const summaries = examples.map((e) => e.summary);
      // Every example in turn, then the first again: the panel shows exactly the chosen body.
      for (const example of [...examples.slice(1), examples[0]!]) {
        await chooseExample(summaries, example.summary);
        await expect
          .poll(async () => squeezed(await requestSamples(page).innerText()), { timeout: 10_000, message: example.summary })
          .toContain(squeezed(JSON.stringify(example.value)));
        // Formatted: one member per line, `"key": value`, not the one-line body of a curl -d.
        const members = Object.entries(example.value as object).map(([key, value]) => `"${key}": ${JSON.stringify(value)}`);
        const shown = await requestSamples(page).innerText();
        for (const member of members.filter((m) => !m.endsWith("}") && !m.endsWith("]"))) expect(shown).toContain(member);
      }
    },
    90_000,
  );

  it("expands response samples: a list's items and their nested objects are shown, not { … }", async () => {
    const { op } = operations().find(({ op }) => op.operationId === "findEncryptionReports")!;
    await open(op.tags[0], op.summary);
    const example = deref(Object.values(deref(op.responses["200"]).content["application/json"].examples)[0] as object) as {
      value: { result: { user: { account: { first_name: string } } }[] };
    };
    const nested = `"first_name": ${JSON.stringify(example.value.result[0]!.user.account.first_name)}`;
    await expect.poll(() => page.locator(".panel-response-samples").filter({ visible: true }).first().innerText(), { timeout: 10_000 }).toContain(nested);
  }, 60_000);

  it("takes screenshots at 1440 px: POST /notifications with the SURVEY example, the changelog, the errors", async () => {
    const { tag, summary, examples } = multiExample.find((m) => m.summary === "Schedule an in-app notification")!;
    const survey = examples.find((e) => /survey/i.test(e.summary))!;
    await open(tag, summary);
    await chooseSample("Payload");
    await chooseExample(
      examples.map((e) => e.summary),
      survey.summary,
    );
    await requestSamples(page).scrollIntoViewIfNeeded();
    await expect.poll(async () => squeezed(await requestSamples(page).innerText())).toContain(squeezed(JSON.stringify(survey.value)));
    await page.screenshot({ path: join(shots, "1440-notifications-survey.png") });
    for (const [route, name, title] of [
      ["#/section/changelog", "changelog", "Changelog"],
      ["#/section/errors", "errors", "Errors"],
    ] as const) {
      const fresh = await trackedPage();
      await fresh.goto(server.url + route, { waitUntil: "load" });
      await expectInView(
        fresh
          .locator("h1, h2")
          .filter({ hasText: exactly(title) })
          .first(),
        title,
      );
      await fresh.screenshot({ path: join(shots, `1440-${name}.png`) });
      await fresh.context().close();
    }
  }, 90_000);

  it("starts with Getting started: the base URLs, both local servers with their packages, the first call", async () => {
    await page.goto(server.url, { waitUntil: "load" });
    const heading = page
      .locator("h1, h2")
      .filter({ hasText: exactly("Getting started") })
      .first();
    await heading.scrollIntoViewIfNeeded();
    await expectInView(heading);
    const text = await page.locator("body").innerText();
    const section = text.slice(text.indexOf("Base URLs"), text.indexOf("Every success answers"));
    expect(section.length).toBeGreaterThan(100);
    expect(doc.servers).toHaveLength(3);
    for (const { url } of doc.servers) expect(section, url).toContain(url);
    for (const words of ["npx authsvc-api mock", "@authsvc/app-api-mock", "npx authsvc-api serve", "@authsvc/app-api-server"]) expect(section).toContain(words);
    expect(section).not.toContain("npm run mock");
    expect(section).toContain("export BASE_URL=http://127.0.0.1:4010/v1");
    expect(section).toContain('"$BASE_URL/widgets/wgt_5a3c8e1f7b92"');
  });

  it("shows the changelog and the versioning policy, rendered from CHANGELOG.md and docs/versioning.md", async () => {
    const fresh = await trackedPage();
    await fresh.goto(`${server.url}#/section/changelog`, { waitUntil: "load" });
    await expectInView(
      fresh
        .locator("h2")
        .filter({ hasText: exactly("Changelog") })
        .first(),
    );
    const text = await fresh.locator("body").innerText();
    const releases = [...readFileSync(join(root, "CHANGELOG.md"), "utf8").matchAll(/^## (\[.+)$/gm)].map((m) => m[1]!);
    expect(releases.length).toBeGreaterThan(0);
    for (const release of releases) expect(text).toContain(release);
    const policy = readFileSync(join(root, "docs/versioning.md"), "utf8");
    const bullets = [...policy.slice(policy.indexOf("## The policy for integrators")).matchAll(/^- \*\*(.+?)\*\*/gm)].map((m) => m[1]!);
    expect(bullets.length).toBeGreaterThan(2);
    expect(text).toContain("Versions and deprecation");
    for (const bullet of bullets) expect(text).toContain(bullet);
    await fresh.context().close();
  }, 60_000);

  it("offers the bundled document for download, and the link serves it", async () => {
    const link = page.locator("a[download]").filter({ hasText: "openapi.json" }).first();
    const target = new URL((await link.getAttribute("href"))!, page.url());
    expect(target.href.startsWith(server.url)).toBe(true);
    const response = await page.request.get(target.href);
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual(JSON.parse(readFileSync(join(root, "generated/openapi.json"), "utf8")));
  });

  it("follows every link of the page: all load, none is a 404, each route finds its target, one of each kind in a new tab", async () => {
    await page.goto(server.url, { waitUntil: "load" });
    await expect.poll(() => page.locator(".menu-item-type-operation").count(), { timeout: 10_000 }).toBe(expected.length);
    const hrefs = [...new Set(await page.locator("a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href")!)))];
    const internal = hrefs.filter((href) => !/^(https?:|mailto:)/.test(href));
    const external = hrefs.filter((href) => /^(https?:|mailto:)/.test(href));
    // Routes are hash routes: a path route (`/section/errors`) would 404 on a static server.
    expect(internal.filter((href) => href.startsWith("/"))).toEqual([]);
    // Files of the directory (the download): fetched.
    for (const href of internal.filter((h) => !h.startsWith("#"))) {
      expect((await page.request.get(new URL(href, server.url).href)).status(), href).toBe(200);
    }
    // `#section/errors` and `#/section/errors` are the same route; `#` and `#/` the top.
    const routeOf = (href: string): string => decodeURIComponent(href.slice(1)).replace(/^\//, "");
    const targetOf = (on: Page, route: string): Locator => (route === "" ? on.locator("h1") : on.locator(`[id="${route}"]`));
    const routes = internal.filter((h) => h.startsWith("#"));
    // Every route followed in the page, as a click on its link does (the hash changes, the
    // page stays): its section or operation is rendered (Redoc renders the route's part of
    // the reference and gives it the route as id).
    for (const href of routes) {
      // Only the fragment changes: a same-document navigation, no reload.
      await page.goto(new URL(href, server.url).href);
      await expect.poll(() => targetOf(page, routeOf(href)).count(), { timeout: 10_000, message: href }).toBeGreaterThan(0);
    }
    // One route of each kind (top, section, tag) loaded afresh, as a new tab (a reader's
    // middle click) would: loading the 2.7 MB page again costs seconds a route.
    const kindOf = (route: string): string => (route === "" ? "top" : route.startsWith("section/") ? "section" : "tag");
    const firstOfKind = new Map<string, string>();
    for (const href of routes) if (!firstOfKind.has(kindOf(routeOf(href)))) firstOfKind.set(kindOf(routeOf(href)), href);
    expect([...firstOfKind.keys()].sort()).toEqual(["section", "tag", "top"]);
    const tab = await trackedPage();
    for (const href of firstOfKind.values()) {
      await tab.goto("about:blank");
      const response = await tab.goto(new URL(href, server.url).href, { waitUntil: "load" });
      expect(response?.status(), href).toBe(200);
      await expect.poll(() => targetOf(tab, routeOf(href)).count(), { timeout: 10_000, message: href }).toBeGreaterThan(0);
    }
    await tab.context().close();
    const notFound = server.served.filter((s) => s.status === 404);
    console.log(
      `link walk: ${internal.length} distinct internal links (${routes.length} routes, ${firstOfKind.size} of them in a new tab), ${external.length} external not followed, ${notFound.length} 404s, ${consoleErrors.length} console errors, ${outside.length} requests outside the directory`,
    );
    expect(routes.length).toBeGreaterThan(30);
    expect(notFound).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 180_000);

  it("works without JavaScript: every sidebar link is an anchor on the page itself", async () => {
    const plain = await trackedPage(undefined, false);
    await plain.goto(server.url, { waitUntil: "load" });
    const hrefs = await plain.locator("a[href^='#section/']").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
    expect(hrefs).toContain("#section/errors");
    expect(hrefs).toContain("#section/changelog");
    for (const href of new Set(hrefs)) expect(await plain.locator(`[id="${href.slice(1)}"]`).count(), href).toBe(1);
    expect(await plain.locator("a[href^='/']").count(), "no path route left").toBe(0);
    await plain.locator(".menu-content a[href='#section/errors']").first().click();
    expect(plain.url()).toBe(`${server.url}#section/errors`);
    await expectInView(
      plain
        .locator("h2")
        .filter({ hasText: exactly("Errors") })
        .first(),
    );
    await plain.context().close();
  }, 60_000);

  it("works opened from disk: a section link in a new tab lands on its section", async () => {
    const disk = await trackedPage();
    await disk.goto(`${pathToFileURL(join(site, "index.html")).href}#section/errors`, { waitUntil: "load" });
    await expectInView(
      disk
        .locator("h2")
        .filter({ hasText: exactly("Errors") })
        .first(),
    );
    await disk.context().close();
  }, 60_000);

  describe(`at ${phoneWidth} px`, () => {
    let phone: Page;
    beforeAll(async () => {
      phone = await trackedPage({ width: phoneWidth, height: 844 });
    });
    afterAll(() => phone?.context().close());

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

    it.each(["", "#/notifications/createnotification", "#/sms-providers/updatesmsprovider", "#/section/changelog"])(
      "nothing is wider than the screen on '%s'",
      async (route) => {
        await phone.goto(server.url + route, { waitUntil: "load" });
        await phone.locator("h1, h2").first().waitFor();
        expect(await overflowing()).toEqual([]);
      },
      60_000,
    );

    it("breaks no error code inside a word", async () => {
      await phone.goto(server.url, { waitUntil: "load" });
      const codes = phone.locator("table code").filter({ hasText: /^[a-z]+(_[a-z]+)+$|^[a-z]+$/ });
      await codes.first().waitFor();
      const lines = await codes.evaluateAll((els) => els.map((e) => [e.textContent, e.getClientRects().length] as const));
      expect(lines.map(([code]) => code)).toContain("unsupported_media_type");
      expect(lines.filter(([, n]) => n !== 1)).toEqual([]);
    }, 60_000);

    it("keeps the menu button off the text: it sits in a bar of its own at the top", async () => {
      await phone.goto(`${server.url}#/section/limits`, { waitUntil: "load" });
      const button = phone.locator('button[aria-label="Open navigation menu"]');
      await button.waitFor();
      const box = (await button.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(52);
      // At the button's centre the reader finds the button, whatever is scrolled under the bar.
      for (const y of [0, 600, 1800]) {
        await phone.evaluate((top) => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, top), y);
        const hit = await phone.evaluate(
          ([x, y]) =>
            (globalThis as unknown as { document: { elementFromPoint(x: number, y: number): { closest(s: string): unknown } | null } }).document
              .elementFromPoint(x!, y!)
              ?.closest('button[aria-label="Open navigation menu"]') != null,
          [box.x + box.width / 2, box.y + box.height / 2],
        );
        expect(hit, `scrolled to ${y}`).toBe(true);
      }
    }, 60_000);

    it("keeps the copy button off the sample: the curl request line is not under it", async () => {
      const { tag, summary, curlLine } = expected.find((e) => e.summary === "Schedule an in-app notification")!;
      await phone.goto(server.url, { waitUntil: "load" });
      await phone.locator('button[aria-label="Open navigation menu"]').click();
      await open(tag, summary, phone);
      await chooseSample("curl", phone);
      const block = codeBlock(curlLine, phone);
      await block.scrollIntoViewIfNeeded();
      await expectInView(block);
      const overlaps = await block.evaluate((pre) => {
        const container = pre.parentElement!;
        const copy = container.querySelector('[data-testid="copy-button"]')!.getBoundingClientRect();
        const range = (
          globalThis as unknown as {
            document: {
              createRange(): { selectNodeContents(n: unknown): void; getClientRects(): ArrayLike<{ left: number; right: number; top: number; bottom: number }> };
            };
          }
        ).document.createRange();
        range.selectNodeContents(pre);
        return Array.from(range.getClientRects()).filter((r) => r.right > copy.left && r.left < copy.right && r.bottom > copy.top && r.top < copy.bottom).length;
      });
      expect(overlaps).toBe(0);
    }, 60_000);

    it("takes screenshots at 390 px: POST /notifications with the SURVEY example, the changelog, the errors", async () => {
      const { tag, summary, examples } = multiExample.find((m) => m.summary === "Schedule an in-app notification")!;
      const survey = examples.find((e) => /survey/i.test(e.summary))!;
      await phone.goto(server.url, { waitUntil: "load" });
      await phone.locator('button[aria-label="Open navigation menu"]').click();
      await open(tag, summary, phone);
      await chooseSample("Payload", phone);
      await chooseExample(
        examples.map((e) => e.summary),
        survey.summary,
        phone,
      );
      await requestSamples(phone).scrollIntoViewIfNeeded();
      await expect.poll(async () => squeezed(await requestSamples(phone).innerText())).toContain(squeezed(JSON.stringify(survey.value)));
      await phone.screenshot({ path: join(shots, "390-notifications-survey.png") });
      for (const [route, name, title] of [
        ["#/section/changelog", "changelog", "Changelog"],
        ["#/section/errors", "errors", "Errors"],
      ] as const) {
        await phone.goto(server.url + route, { waitUntil: "load" });
        await expectInView(
          phone
            .locator("h1, h2")
            .filter({ hasText: exactly(title) })
            .first(),
          title,
        );
        await phone.screenshot({ path: join(shots, `390-${name}.png`) });
      }
    }, 90_000);
  });

  it("over the whole run: no console error, no request outside the directory, no 404", () => {
    expect(consoleErrors).toEqual([]);
    expect(outside).toEqual([]);
    expect(server.served.filter((s) => s.status === 404)).toEqual([]);
    expect(server.served.length).toBeGreaterThan(0);
  });
});
