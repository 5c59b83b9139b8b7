// The page's script: the test calls window.runCalls(...) and window.runPrefetch(...) from Chromium.
import { runCalls } from "./calls.js";
import { runPrefetch } from "./prefetch.js";

declare global {
  interface Window {
    runCalls: typeof runCalls;
    runPrefetch: typeof runPrefetch;
  }
}

window.runCalls = runCalls;
window.runPrefetch = runPrefetch;
