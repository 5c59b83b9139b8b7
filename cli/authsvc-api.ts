#!/usr/bin/env node
// The package's command: `authsvc-api <command> [flags]`. Each command is a module exporting
// `run(argv): Promise<number>` (the exit code), loaded only when it is asked for.
const commands: Record<string, () => Promise<{ run(argv: string[]): Promise<number> }>> = {
  conformance: () => import("./conformance.js"),
  mock: () => import("./mock.js"),
  serve: () => import("./serve.js"),
};

const [name, ...argv] = process.argv.slice(2);
const load = name === undefined ? undefined : commands[name];
if (load === undefined) {
  console.error(`usage: authsvc-api <${Object.keys(commands).join("|")}> [flags] (each takes --help)`);
  process.exitCode = 2;
} else {
  process.exitCode = await (await load()).run(argv);
}
