// Runs a command of the project (npm script or a package's bin) and collects what it printed.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const root = fileURLToPath(new URL("../../", import.meta.url));

/** A package bin of this repository, e.g. `bin("redocly")`. */
export const bin = (name: string): string => `${root}node_modules/.bin/${name}`;

export interface Ran {
  code: number;
  output: string;
}

/** Runs `command args` in `cwd` (default: the root), `env` added; never throws on a non-zero exit. */
export function run(command: string, args: string[], cwd = root, env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd,
        maxBuffer: 16 * 1024 * 1024,
        // No network here: keep Redocly from trying to report usage or look for updates.
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1", ...env },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}
