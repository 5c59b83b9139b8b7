// The entry point (`npm start`): the reference server (server/reference-server.ts) with the
// configuration of the environment (server/config.ts lists the variables: PORT, HOST,
// SEED_FILE, LOG_LEVEL, EMAIL_AUTH_KEY, DATABASE_URL, the limits, TRUST_PROXY, CORS_ORIGINS…).
import { serverConfigFromEnv } from "./config.js";
import { runReferenceServer } from "./reference-server.js";

const code = await runReferenceServer(() => serverConfigFromEnv());
// Exits at once when it cannot start, even with a database pool half open.
if (code !== 0) process.exit(code);
