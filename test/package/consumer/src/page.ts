// The page's script: the test calls window.runCalls(...) from Chromium.
import { runCalls } from "./calls.js";

declare global {
  interface Window {
    runCalls: typeof runCalls;
  }
}

window.runCalls = runCalls;
