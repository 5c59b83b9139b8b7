// Reading the environment of the entry points (server/main.ts, mock/main.ts): one parser, so
// `PORT=""` means the default and `PORT=abc` is refused with a message in both, never 0 or NaN.

/** A non-negative integer variable; unset or empty gives `fallback`, anything else not all digits throws. */
export function integerEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}
