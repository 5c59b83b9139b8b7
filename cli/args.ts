// Flag parsing shared by the `authsvc-api` commands: node:util parseArgs in strict mode, so
// an unknown flag, a missing value or a stray argument is a usage error; `--help`/`-h` is
// always accepted. A command prints a usage error as one line and exits 2.
import { parseArgs, type ParseArgsConfig } from "node:util";

/** A bad command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** The values of the flags `O` declares: a string or a boolean by the flag's type, undefined when absent. */
export type FlagValues<O extends Options> = { [K in keyof O]?: O[K]["type"] extends "boolean" ? boolean : string };

/** The parsed flags, or "help" when `--help`/`-h` was given. */
export function parseFlags<O extends Options>(argv: string[], options: O): FlagValues<O> | "help" {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...options, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError((error as Error).message.split("\n")[0]);
  }
  if (values.help) return "help";
  return values as FlagValues<O>;
}

/** A TCP port flag: 0–65535, digits only; undefined when the flag is absent. */
export function portFlag(value: string | undefined, flag = "--port"): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new UsageError(`${flag} must be a port number (0-65535), got "${value}"`);
  return Number(value);
}

/**
 * Runs a command's body: `--help` prints the usage (exit 0), a UsageError one line naming
 * the command (exit 2); anything else is the body's own exit code.
 */
export async function command(name: string, usage: string, body: () => Promise<number | "help"> | "help"): Promise<number> {
  try {
    const outcome = await body();
    if (outcome === "help") {
      console.log(usage);
      return 0;
    }
    return outcome;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`authsvc-api ${name}: ${error.message} (--help for usage)`);
    return 2;
  }
}
