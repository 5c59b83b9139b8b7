// A server or mock started as a child process prints "… on http://host:port/v1" once it
// listens: its base URL, read from stdout. Rejects with what it wrote when it exits first.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";

export interface Printed {
  /** The base URL (…/v1) once it is printed. */
  url: Promise<string>;
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

export function printedUrl(child: ChildProcess, name = "the process"): Printed {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", () => {
      const match = /on (http:\/\/\S+\/v1)\b/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`${name} exited with ${code} before listening: ${stdout}${stderr}`)));
  });
  url.catch(() => undefined);
  return { url, exited, stdout: () => stdout, stderr: () => stderr };
}
