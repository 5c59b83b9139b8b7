// `authsvc-api stubs <dir>` against a directory a stranger could have prepared (a cloned
// repository, a shared checkout): it reads, writes and deletes only regular files directly in
// it, never through a symbolic link, never a FIFO or a device, and reads `.contract.json` as
// untrusted input. Each refusal is one line on stderr and exit 1, and what was outside the
// directory is as it was. A delete that fails is reported on every run until it is resolved,
// and the snapshot it writes is one Prettier (the pinned devDependency, at its defaults)
// leaves alone. Outside the fast loop: FIFOs and read-only directories need mkfifo/chattr.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as prettier from "prettier";
import { afterAll, describe, expect, it, vi } from "vitest";
import { run } from "../../cli/stubs.js";
import { operations } from "../../generated/operations.js";
import { stubModule } from "../../server/stubs/templates.js";
import { changedContract } from "../support/changed-contract.js";
import { doc } from "../support/document.js";

const scratch = mkdtempSync(join(tmpdir(), "stubs-directory-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(scratch, `case-${++dirs}`);

/** Runs the command in-process: exit code, stdout, stderr (each a list of lines). */
async function stubs(dir: string): Promise<{ code: number; out: string; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((text: unknown) => void out.push(String(text)));
  const error = vi.spyOn(console, "error").mockImplementation((text: unknown) => void err.push(String(text)));
  try {
    return { code: await run([dir]), out: out.join("\n"), err: err.flatMap((text) => text.split("\n")) };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/** A directory after a first run, so later cases start from a stubs directory as a team has it. */
async function generated(): Promise<string> {
  const dir = freshDir();
  expect((await stubs(dir)).code).toBe(0);
  return dir;
}

const listing = (dir: string) => readdirSync(dir).sort();

describe("links and special files", () => {
  it("a dangling symbolic link as .contract.json: refused, nothing created where it points, nothing written", async () => {
    const dir = freshDir();
    mkdirSync(dir);
    const outside = join(scratch, "created-outside.json");
    symlinkSync(outside, join(dir, ".contract.json"));
    const { code, err } = await stubs(dir);
    expect(code).toBe(1);
    expect(err).toEqual([`authsvc-api stubs: ${dir}/.contract.json is a symbolic link, not a regular file: stubs reads only regular files in its directory`]);
    expect(existsSync(outside)).toBe(false);
    expect(listing(dir)).toEqual([".contract.json"]);
  });

  it("a symbolic link to a team's file as .contract.json: refused, the team's file as it was", async () => {
    const dir = await generated();
    const team = join(scratch, "internal-openapi.json");
    writeFileSync(team, '{"openapi":"3.1.0","info":{"title":"internal","version":"9.9.9"},"paths":{}}\n');
    rmSync(join(dir, ".contract.json"));
    symlinkSync(team, join(dir, ".contract.json"));
    const { code, err } = await stubs(dir);
    expect(code).toBe(1);
    expect(err).toEqual([`authsvc-api stubs: ${dir}/.contract.json is a symbolic link, not a regular file: stubs reads only regular files in its directory`]);
    expect(readFileSync(team, "utf8")).toBe('{"openapi":"3.1.0","info":{"title":"internal","version":"9.9.9"},"paths":{}}\n');
  });

  it("a hard link to a team's file as .contract.json: read as a snapshot, then replaced by a file of its own; the team's file as it was", async () => {
    const dir = await generated();
    const team = join(scratch, "shared-openapi.json");
    writeFileSync(team, readFileSync(join(dir, ".contract.json")));
    const before = readFileSync(team, "utf8");
    rmSync(join(dir, ".contract.json"));
    linkSync(team, join(dir, ".contract.json"));
    expect((await stubs(dir)).code).toBe(0);
    expect(readFileSync(team, "utf8")).toBe(before);
    expect(lstatSync(join(dir, ".contract.json")).nlink).toBe(1);
  });

  it("a module that is a symbolic link to /dev/zero: refused without reading it", async () => {
    const dir = await generated();
    rmSync(join(dir, "readWidget.ts"));
    symlinkSync("/dev/zero", join(dir, "readWidget.ts"));
    const { code, err } = await stubs(dir);
    expect(code).toBe(1);
    expect(err).toEqual([`authsvc-api stubs: ${dir}/readWidget.ts is a symbolic link, not a regular file: stubs reads only regular files in its directory`]);
  });

  it("a module that is a FIFO: refused at once, never opened", async () => {
    const dir = await generated();
    rmSync(join(dir, "readWidget.ts"));
    execFileSync("mkfifo", [join(dir, "readWidget.ts")]);
    const { code, err } = await stubs(dir);
    expect(code).toBe(1);
    expect(err).toEqual([`authsvc-api stubs: ${dir}/readWidget.ts is a FIFO, not a regular file: stubs reads only regular files in its directory`]);
  });

  it("a directory where a module goes: refused", async () => {
    const dir = await generated();
    rmSync(join(dir, "readWidget.ts"));
    mkdirSync(join(dir, "readWidget.ts"));
    const { code, err } = await stubs(dir);
    expect(code).toBe(1);
    expect(err).toEqual([`authsvc-api stubs: ${dir}/readWidget.ts is a directory, not a regular file: stubs reads only regular files in its directory`]);
  });

  it("files it has no module for (x.ts → /dev/zero, a FIFO, a dangling link) are neither read nor touched", async () => {
    const dir = await generated();
    symlinkSync("/dev/zero", join(dir, "x.ts"));
    execFileSync("mkfifo", [join(dir, "queue.ts")]);
    symlinkSync(join(scratch, "nowhere"), join(dir, "helpers.ts"));
    const { code, err } = await stubs(dir);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(lstatSync(join(dir, "x.ts")).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(dir, "queue.ts")).isFIFO()).toBe(true);
  });

  it("a module too large to be a stub is implemented, left unread and untouched", async () => {
    const dir = await generated();
    const large = `// mine\n${"x".repeat(100 * 1024)}\n`;
    writeFileSync(join(dir, "readWidget.ts"), large);
    const { code, out } = await stubs(dir);
    expect(code).toBe(0);
    expect(out).toContain("1 implemented (not touched)");
    expect(readFileSync(join(dir, "readWidget.ts"), "utf8")).toBe(large);
  });
});

describe(".contract.json as untrusted input", () => {
  const withSnapshot = async (text: string, files: Record<string, string> = {}) => {
    const dir = await generated();
    writeFileSync(join(dir, ".contract.json"), text);
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    return { dir, ...(await stubs(dir)) };
  };
  const advice = "restore it from version control, or delete it to start over";

  it("not JSON: one line, no stack", async () => {
    const { dir, code, err } = await withSnapshot("{ this is not JSON");
    expect(code).toBe(1);
    expect(err).toEqual([`authsvc-api stubs: ${dir}/.contract.json is not JSON (Expected property name or '}' in JSON at position 2 (line 1 column 3)); ${advice}`]);
  });

  it("larger than 16 MiB: not read, one line", async () => {
    const { dir, code, err } = await withSnapshot(`{"padding":"${"x".repeat(16 * 1024 * 1024)}"}`);
    expect(code).toBe(1);
    expect(err).toEqual([`authsvc-api stubs: ${dir}/.contract.json is over 16777216 bytes: not read; ${advice}`]);
  });

  it("JSON that is not a document: one line", async () => {
    const { dir, code, err } = await withSnapshot('{"openapi":"3.1.0","paths":{}}');
    expect(code).toBe(1);
    expect(err).toEqual([`authsvc-api stubs: ${dir}/.contract.json is not an OpenAPI document (no info.version); ${advice}`]);
  });

  it("a $ref that names nothing, or the prototype of an object: one line", async () => {
    const dangling = structuredClone(doc);
    dangling.paths["/widgets/{id}"].get.responses["200"] = { $ref: "#/__proto__/constructor" };
    const { dir, code, err } = await withSnapshot(JSON.stringify(dangling));
    expect(code).toBe(1);
    expect(err).toEqual([`authsvc-api stubs: ${dir}/.contract.json cannot be compared with: Cannot resolve $ref #/__proto__/constructor: dangling; ${advice}`]);
  });

  it("a $ref fan-out (each schema naming the next twice, 22 deep): refused in bounded time, one line", async () => {
    const bomb = structuredClone(doc);
    for (let i = 0; i < 22; i++) {
      const next = { $ref: `#/components/schemas/Fan${i + 1}` };
      bomb.components.schemas[`Fan${i}`] = { type: "object", properties: { a: next, b: next } };
    }
    bomb.components.schemas.Fan22 = { type: "string" };
    bomb.paths["/widgets/{id}"].get.responses["200"].content["application/json"].schema = { $ref: "#/components/schemas/Fan0" };
    const started = performance.now();
    const { dir, code, err } = await withSnapshot(JSON.stringify(bomb));
    console.info(`fan-out refused in ${Math.round(performance.now() - started)} ms`);
    expect(code).toBe(1);
    expect(err).toEqual([`authsvc-api stubs: ${dir}/.contract.json cannot be compared with: its $refs inline to more than 200000 nodes (a $ref fan-out); ${advice}`]);
  });

  it("an operation it adds cannot make the report name, or the command delete, a file of the team's own", async () => {
    const edited = structuredClone(doc);
    // `helpers` (a team's module), and an id that would be a path outside the directory.
    edited.paths["/helpers"] = { get: { ...edited.paths["/webhooks"].get, operationId: "helpers" } };
    edited.paths["/escape"] = { get: { ...edited.paths["/webhooks"].get, operationId: "../../escape" } };
    const { dir, code, out, err } = await withSnapshot(JSON.stringify(edited), { "helpers.ts": "export const helpers = 1;\n" });
    expect([code, err]).toEqual([0, []]);
    expect(out).not.toContain("helpers");
    expect(out).not.toContain("escape");
    expect(readFileSync(join(dir, "helpers.ts"), "utf8")).toBe("export const helpers = 1;\n");
  });

  it("control characters in what it reports from the snapshot are escaped: the terminal shows them, does not obey them", async () => {
    const edited = structuredClone(doc);
    edited.info.version = "\u001b[2J\u001b[31m6.6.6\u202e";
    const { code, out } = await withSnapshot(JSON.stringify(edited));
    expect(code).toBe(0);
    expect(out).toContain("contract \\u001b[2J\\u001b[31m6.6.6\\u202e → ");
    expect(out.includes("\u001b") || out.includes("\u202e")).toBe(false);
  });
});

/** Makes `dir` refuse deletes (chmod for a user, the immutable attribute for root); false where neither works. */
function readOnly(dir: string, on: boolean): boolean {
  if (process.getuid?.() === 0) {
    try {
      execFileSync("chattr", [on ? "+i" : "-i", dir], { stdio: "ignore" });
    } catch {
      return false;
    }
  } else chmodSync(dir, on ? 0o555 : 0o755);
  if (!on) return true;
  try {
    writeFileSync(join(dir, ".probe"), "");
    rmSync(join(dir, ".probe"));
    return false;
  } catch {
    return true;
  }
}

describe("a delete that fails", () => {
  it("is reported, exit 1, on every run until the stub is gone; .contract.json stays at the contract that removed it until then", async (context) => {
    // The directory as a run against the changed contract left it: deleteGadget's stub, and that contract's snapshot.
    const dir = await generated();
    const changed = changedContract(doc);
    writeFileSync(join(dir, ".contract.json"), JSON.stringify(changed));
    writeFileSync(join(dir, "deleteGadget.ts"), stubModule({ operationId: "deleteGadget", method: "delete", path: "/gadgets/{id}" }));
    if (!readOnly(dir, true)) return context.skip("cannot make a directory read-only here (root without chattr on this file system)");
    try {
      const line = `authsvc-api stubs: could not delete ${dir}/deleteGadget.ts, the untouched stub of an operation the contract removed (EACCES); .contract.json stays at contract ${changed.info.version}, so every run tries again until the file is gone`;
      const expected = process.getuid?.() === 0 ? line.replace("(EACCES)", "(EPERM)") : line;
      for (let run = 0; run < 2; run++) {
        const { code, out, err } = await stubs(dir);
        expect(code).toBe(1);
        expect(err).toEqual([expected]);
        expect(out).toContain("removed  not deleted  deleteGadget.ts");
        expect(JSON.parse(readFileSync(join(dir, ".contract.json"), "utf8")).info.version).toBe(changed.info.version);
      }
    } finally {
      readOnly(dir, false);
    }
    const { code, out } = await stubs(dir);
    expect(code).toBe(0);
    expect(out).toContain("removed  deleted      deleteGadget.ts");
    expect(existsSync(join(dir, "deleteGadget.ts"))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, ".contract.json"), "utf8")).info.version).toBe(doc.info.version);
  });
});

describe("the snapshot it writes", () => {
  it("is left alone by Prettier at its defaults (prettier --check, the pinned devDependency), on the first run and after", async () => {
    const dir = await generated();
    const snapshot = join(dir, ".contract.json");
    // Prettier's API at the options its CLI resolves for the file (none here: its defaults).
    const formatted = async () => prettier.check(readFileSync(snapshot, "utf8"), { ...(await prettier.resolveConfig(snapshot)), filepath: snapshot });
    expect(await formatted()).toBe(true);
    expect((await stubs(dir)).code).toBe(0);
    // The CLI, once, as a team's CI runs it.
    const cli = execFileSync(process.execPath, [join("node_modules", "prettier", "bin", "prettier.cjs"), "--check", snapshot], { encoding: "utf8" });
    expect(cli).toContain("All matched files use Prettier code style!");
    expect(JSON.parse(readFileSync(snapshot, "utf8"))).toEqual(doc);
    // The oracle fails on what the command wrote before: JSON.stringify's layout.
    writeFileSync(snapshot, `${JSON.stringify(doc, null, 2)}\n`);
    expect(await formatted()).toBe(false);
  });

  it("is what Prettier makes of any JSON value: objects expanded, arrays on one line when they fit, numbers filled", async () => {
    const { prettierJson } = await import("../../server/stubs/snapshot.js");
    const fc = (await import("fast-check")).default;
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.integer({ min: -1e6, max: 1e12 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string({ maxLength: 50 }),
        fc.boolean(),
        fc.constant(null),
        tie("array"),
        tie("object"),
      ),
      array: fc.array(tie("value"), { maxLength: 12 }),
      object: fc.dictionary(fc.string({ maxLength: 12 }), tie("value"), { maxKeys: 5 }),
    }));
    await fc.assert(
      fc.asyncProperty(json.object, async (value) => {
        const text = prettierJson(value);
        expect(await prettier.format(text, { filepath: ".contract.json" })).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe("every operation of the table", () => {
  it("gets its module in a fresh directory (the refusals above are not what a normal run meets)", async () => {
    const dir = await generated();
    expect(listing(dir)).toEqual([".contract.json", "index.ts", ...Object.keys(operations).map((id) => `${id}.ts`)].sort());
  });
});
