#!/usr/bin/env node
// The `authsvc-api <command> [flags]` command. Each command is a module exporting
// `run(argv): Promise<number>` (the exit code), loaded only when it is asked for.
//
// Two packages ship this same file under the same bin name: @authsvc/app-api-mock (`mock`)
// and @authsvc/app-api-server (`serve`); `conformance` is @authsvc/app-api-conformance's
// (a development install, with Redocly CLI), run from there when it is installed. npm links one `authsvc-api` per
// project and, when both packages are installed, the last one linked silently wins. So each
// copy runs the commands it holds itself and finds the others in the sibling package: with
// both installed, every command works whichever copy npm linked (docs/publishing.md).
import nodeModule from "node:module";
import { fileURLToPath } from "node:url";

// V8's code cache for every module this process loads (os.tmpdir()/node-compile-cache, as tsc
// and npm keep theirs): `mock` and `serve` load some 450 modules, and a run after the first
// skips compiling them. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
// (Node 22.1+; @types/node 20 does not declare it.)
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

type Command = { run(argv: string[]): Promise<number> };

/** The package that holds each command. */
const owners: Record<string, string> = {
  conformance: "@authsvc/app-api-conformance",
  mock: "@authsvc/app-api-mock",
  serve: "@authsvc/app-api-server",
  stubs: "@authsvc/app-api-server",
};

const notFound = (error: unknown) => (error as { code?: string }).code === "ERR_MODULE_NOT_FOUND";

/** The command from this package (`./<name>.js` beside this file), else from the package that holds it. */
async function load(name: string): Promise<Command | string> {
  // A variable specifier: the build compiles only the commands a package holds.
  const own = `./${name}.js`;
  try {
    return (await import(own)) as Command;
  } catch (error) {
    // Only this file's absence means "not in this package"; a missing dependency of it is a real error.
    if (!notFound(error) || !String((error as Error).message).includes(fileURLToPath(new URL(own, import.meta.url)))) throw error;
  }
  const owner = owners[name]!;
  try {
    return (await import(`${owner}/command/${name}`)) as Command;
  } catch (error) {
    if (!notFound(error)) throw error;
    return `authsvc-api ${name} comes with ${owner}: npm install --save-dev ${owner}`;
  }
}

const [name, ...argv] = process.argv.slice(2);
if (name === undefined || !Object.hasOwn(owners, name)) {
  console.error(`usage: authsvc-api <${Object.keys(owners).join("|")}> [flags] (each takes --help)`);
  process.exitCode = 2;
} else {
  const command = await load(name);
  if (typeof command === "string") {
    console.error(command);
    process.exitCode = 1;
  } else process.exitCode = await command.run(argv);
}
