// A pino logger writing to memory, for suites that look at the log lines they cause (the
// secret scans, the redaction and request-id checks).
import { Writable } from "node:stream";
import { pino, type Level, type Logger } from "pino";

export interface CapturedLogs {
  logger: Logger;
  /** Every log line written so far, as written. */
  lines: string[];
  /** Every log line written so far, parsed. */
  readonly records: Record<string, unknown>[];
}

/** A logger at `level` (default the most verbose) whose lines land in `lines`. */
export function captureLogs(level: Level = "trace"): CapturedLogs {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  return {
    logger: pino({ level }, sink),
    lines,
    get records() {
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
  };
}

/** The texts (answers or log lines) holding any of the secrets, with the secret found. */
export function leaks(texts: readonly string[], secrets: Iterable<string>): { secret: string; text: string }[] {
  const found: { secret: string; text: string }[] = [];
  for (const secret of secrets) for (const text of texts) if (text.includes(secret)) found.push({ secret, text: text.slice(0, 300) });
  return found;
}
