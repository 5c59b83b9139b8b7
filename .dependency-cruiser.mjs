// The layer order of the repository's code, held by dependency-cruiser (`npm run lint:layers`;
// in `npm test`: test/tooling/layers.test.ts). A module may import its own unit and the units of lower
// layers only: nothing imports back up, and the units of one layer are independent of each
// other (the contract client knows no server code, the contract layer no store, the mock
// and the conformance suite neither each other nor the reference server). No circle, at any
// depth, anywhere. Type-only imports count: they tie the code as much as the others.
// CONTRIBUTING.md draws the same order for a newcomer, with what each unit holds and which
// package ships it (the layers test keeps the two in step).

/**
 * Lowest first. A unit is a folder, a single file, or folders that share one unit (named
 * together in an array: the development tools import each other's helpers).
 */
export const layers = [
  ["generated"],
  ["client", "server/document", "server/domain", "server/crypto", "server/problems.ts"],
  ["server/seed"],
  ["server/rules", "server/middleware"],
  ["server/config.ts"],
  ["server/store", "server/contract-layer"],
  ["server/handlers", "server/stubs"],
  ["server/reference-server.ts", "mock", "conformance", "openapi"],
  ["server/main.ts", "msw"],
  ["cli"],
  ["scripts"],
  [["bench", "test"]],
];

/** The folders (or files) of a unit. */
export const foldersOf = (unit) => (Array.isArray(unit) ? unit : [unit]);
/** A unit's name as CONTRIBUTING.md and the messages write it: `bench + test`. */
export const unitName = (unit) => foldersOf(unit).join(" + ");

const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The paths of some units' folders and files, as one regular expression. */
const pathsOf = (units) =>
  `^(${units
    .flatMap(foldersOf)
    .map((folder) => (folder.endsWith(".ts") ? `${literal(folder)}$` : `${literal(folder)}/`))
    .join("|")})`;

/** One rule per unit: it imports nothing from a higher layer nor from another unit of its own. */
const layerRules = layers.flatMap((layer, index) =>
  layer.flatMap((unit) => {
    const forbidden = [...layers.slice(index + 1).flat(), ...layer.filter((other) => other !== unit)];
    if (forbidden.length === 0) return [];
    return {
      name: `layer ${index}: ${unitName(unit)}`,
      comment: `${unitName(unit)} imports only itself and layers 0-${index - 1} (.dependency-cruiser.mjs)`,
      severity: "error",
      from: { path: pathsOf([unit]) },
      to: { path: pathsOf(forbidden) },
    };
  }),
);

/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    {
      name: "no-circular",
      comment: "a module that reaches itself through its imports: two modules each needing the other are one unit in two files",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...layerRules,
  ],
  options: {
    tsPreCompilationDeps: true,
    // Node's own resolution, package `exports` included. Not tsconfig.json's: its resolver
    // (tsconfig-paths) reads a bare `msw` as the msw/ folder when no baseUrl is set. So the
    // package's own name (`@authsvc/app-api-contract`, which tsconfig maps to client/) is not
    // followed from the code samples and tests that use it: both are above the client anyway.
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
    doNotFollow: { path: "node_modules" },
    // Nor the packages' builds (packages/*/dist/, left by a pack or a bench): the workspace link of
    // the package's own name leads there once one exists.
    exclude: { path: "(^|/)node_modules/|^test/package/consumer/|^packages/[^/]+/dist/" },
  },
};
