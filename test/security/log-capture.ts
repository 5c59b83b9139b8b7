// A pino logger at the most verbose level writing to memory, for suites that scan every log
// line they cause for secrets they submitted.
import { Writable } from "node:stream";
import { pino, type Logger } from "pino";

export interface CapturedLogs {
  logger: Logger;
  lines: string[];
}

export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return { logger: pino({ level: "trace" }, sink), lines };
}

/** The texts (answers or log lines) holding any of the secrets, with the secret found. */
export function leaks(texts: readonly string[], secrets: Iterable<string>): { secret: string; text: string }[] {
  const found: { secret: string; text: string }[] = [];
  for (const secret of secrets) for (const text of texts) if (text.includes(secret)) found.push({ secret, text: text.slice(0, 300) });
  return found;
}
