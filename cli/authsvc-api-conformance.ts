#!/usr/bin/env node
// The `authsvc-api-conformance [flags]` command of @authsvc/app-api-conformance: the same
// run as `authsvc-api conformance` (cli/conformance.ts), under a name of its own, so the
// suite and Redocly CLI can be a development install apart from the server package.
import { run } from "./conformance.js";

process.exitCode = await run(process.argv.slice(2));
