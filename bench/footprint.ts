// `npm run bench:footprint`: what a consumer pays for each package, measured and written
// where the docs quote it. Packs the three workspaces (each one's prepack builds it),
// installs each alone into a fresh project (from the npm cache where it can), counts the
// packages of its lockfile and the bytes of its node_modules, and bundles the client as a
// frontend does (esbuild, minified ESM for browsers, of the consumer test's client-only
// entry, in the contract's project). Writes bench/footprint/figures.json and the marked
// regions of README.md, docs/frontend.md and docs/publishing.md (footprint/regions.ts):
// the figures have no other writer, so after a change to a package, rerun this
// (`-- --render` rewrites the regions from the last measurement without measuring).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { version as esbuildVersion } from "esbuild";
import { clientBundle } from "./footprint/bundle.js";
import { documents, fill, names, packages, type Footprint, type PackageKey } from "./footprint/regions.js";
import { bytesUnder } from "./footprint/bytes.js";

const root = fileURLToPath(new URL("../", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
/** The last measurement, committed: the docs' regions are rendered from it. */
export const resultFile = join(root, "bench/footprint/figures.json");

async function measure(): Promise<Footprint> {
  const scratch = mkdtempSync(join(tmpdir(), "authsvc-footprint-"));
  try {
    const tarballs = join(scratch, "tarballs");
    mkdirSync(tarballs);
    console.error("bench:footprint: npm pack --workspaces (builds each package)…");
    const stdout = execFileSync(npm, ["pack", "--workspaces", "--json", "--pack-destination", tarballs], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    }).toString();
    const reports = JSON.parse(stdout.slice(stdout.lastIndexOf("\n[") + 1)) as { name: string; filename: string }[];
    const tarball = (key: PackageKey) => join(tarballs, reports.find((report) => report.name === names[key])!.filename);
    const installs = {} as Footprint["installs"];
    let contractProject = "";
    for (const key of packages) {
      const project = join(scratch, key);
      mkdirSync(project);
      writeFileSync(join(project, "package.json"), JSON.stringify({ name: `footprint-${key}`, version: "1.0.0", private: true, type: "module" }));
      console.error(`bench:footprint: npm install ${names[key]} into a fresh project…`);
      execFileSync(npm, ["install", tarball(key), "--no-audit", "--no-fund", "--prefer-offline"], { cwd: project, stdio: ["ignore", "ignore", "inherit"] });
      const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
      installs[key] = {
        packages: Object.keys(lock.packages).filter((path) => path.startsWith("node_modules/")).length,
        bytes: bytesUnder(join(project, "node_modules")),
      };
      if (key === "contract") contractProject = project;
    }
    copyFileSync(join(root, "test/package/consumer/src/client-only.ts"), join(contractProject, "client-only.ts"));
    return {
      measuredAt: new Date().toISOString().slice(0, 10),
      node: process.versions.node,
      npm: execFileSync(npm, ["--version"]).toString().trim(),
      esbuild: esbuildVersion,
      clientBundle: await clientBundle(contractProject, "client-only.ts"),
      installs,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // --render: no measurement, the regions rewritten from the last one (after editing around them).
  const footprint = process.argv.includes("--render") ? (JSON.parse(readFileSync(resultFile, "utf8")) as Footprint) : await measure();
  writeFileSync(resultFile, `${JSON.stringify(footprint, null, 2)}\n`);
  for (const document of documents) {
    const file = join(root, document);
    writeFileSync(file, fill(readFileSync(file, "utf8"), footprint));
  }
  console.log(JSON.stringify(footprint, null, 2));
  console.log(`bench:footprint: wrote bench/footprint/figures.json and the figures of ${documents.join(", ")}`);
}
