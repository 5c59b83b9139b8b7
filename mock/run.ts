// Runs the mock as a foreground process until SIGINT/SIGTERM: the body of `npm run mock`
// and of `authsvc-api mock`, which differ only in where their options come from.
import { startMock, type MockOptions, type RunningMock } from "./index.js";

/** Starts the mock, prints its URL, and closes it on a signal. Resolves once it listens; exit code 1 if it cannot start. */
export async function runMock(options: MockOptions): Promise<number> {
  let mock: RunningMock;
  try {
    mock = await startMock(options);
  } catch (error) {
    // A port in use, or an interface that does not exist.
    console.error(`Cannot start the mock: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const mode = options.dynamic ? "generated data; Prefer: dynamic=false for the examples" : "static examples; Prefer: dynamic=true for generated data";
  console.log(`Mock of the application API on ${mock.url} (${mode})`);

  let closing = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      mock.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  return 0;
}
