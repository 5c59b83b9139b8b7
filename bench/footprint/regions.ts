// The figures `npm run bench:footprint` measures (bench/footprint/figures.json) as the text of
// the marked regions of the docs that quote them, `<!-- footprint:KEY -->…<!-- /footprint -->`.
// The script is their only writer; test/tooling/footprint.test.ts fails when a region differs
// from what the last measurement renders (a figure typed by hand) or when the client bundle
// no longer matches a fresh build within a tolerance (rerun the script).

export const packages = ["contract", "mock", "server"] as const;
export type PackageKey = (typeof packages)[number];

export interface Footprint {
  /** ISO date of the measurement. */
  measuredAt: string;
  node: string;
  npm: string;
  esbuild: string;
  /** esbuild of test/package/consumer/src/client-only.ts in a project with the packed contract installed: minified ESM for browsers. */
  clientBundle: { bytes: number; gzipBytes: number };
  /** `npm install <the packed package>` into a fresh project: lockfile entries under node_modules/, and the bytes of its files. */
  installs: Record<PackageKey, { packages: number; bytes: number }>;
}

/** The docs holding regions, from the repository root. */
export const documents = ["README.md", "docs/frontend.md", "docs/publishing.md"] as const;

/** The published name of each package. */
export const names: Record<PackageKey, string> = { contract: "@authsvc/app-api-contract", mock: "@authsvc/app-api-mock", server: "@authsvc/app-api-server" };

/** SI units, as npm prints sizes: 1 kB = 1,000 bytes, 1 MB = 1,000,000. */
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const MB = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;
const install = (f: Footprint, key: PackageKey) => `${f.installs[key].packages} package${f.installs[key].packages === 1 ? "" : "s"}, ${MB(f.installs[key].bytes)}`;

/** The text of each region, by key. */
export function render(f: Footprint): Record<string, string> {
  const rows = packages.map((key) => `| \`${names[key]}\` | ${f.installs[key].packages} | ${MB(f.installs[key].bytes)} |`);
  return {
    "contract-install": install(f, "contract"),
    "client-bundle": `${kB(f.clientBundle.bytes)} minified, ${kB(f.clientBundle.gzipBytes)} gzipped`,
    "client-gzip": kB(f.clientBundle.gzipBytes),
    "install-table": [
      "",
      `Install footprint in a fresh project (\`npm install <one packed package>\`: the packages of its`,
      `lockfile, the bytes of the files under \`node_modules\` (not \`du\`'s disk blocks; 1 MB = 10⁶ bytes);`,
      `Node ${f.node}, npm ${f.npm}, ${f.measuredAt}; written by \`npm run bench:footprint\`, not by hand):`,
      "",
      "| installed | packages | node_modules |",
      "|---|---:|---:|",
      ...rows,
      "",
    ].join("\n"),
  };
}

const region = /<!-- footprint:([a-z-]+) -->([\s\S]*?)<!-- \/footprint -->/g;

/** Each region of a text: its key and its current content. */
export function regionsIn(text: string): { key: string; content: string }[] {
  return [...text.matchAll(region)].map((match) => ({ key: match[1]!, content: match[2]! }));
}

/** The text with every region's content replaced by its rendering; throws on an unknown key. */
export function fill(text: string, f: Footprint): string {
  const rendered = render(f);
  return text.replace(region, (_, key: string) => {
    const content = rendered[key];
    if (content === undefined) throw new Error(`unknown footprint region "${key}" (known: ${Object.keys(rendered).join(", ")})`);
    return `<!-- footprint:${key} -->${content}<!-- /footprint -->`;
  });
}
