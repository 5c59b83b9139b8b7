// `npm run db:migrate`, `npm run db:seed -- [--seed FILE] [--new-email-key]` and `npm run db:rotate-email-key`
// against DATABASE_URL: apply the pending migrations; load a seed (the demo seed by default)
// in place of what is stored; re-seal every stored e-mail transport from OLD_EMAIL_AUTH_KEY
// to EMAIL_AUTH_KEY. Seeding needs EMAIL_AUTH_KEY, and the database's key when it has one
// (server/store/postgres/email-key.ts). Exits 1 with a one-line reason when the database
// cannot be reached, a key is missing or wrong, or the seed is bad.
import { parseArgs } from "node:util";
import pg from "pg";
import { databaseCommandConfigFromEnv, type DatabaseCommandConfig } from "../../config.js";
import { emailAuthKeyEnv, parseKey, useEmailAuthKey } from "../../crypto/email-auth.js";
import { demoSeedFile, loadSeed } from "../../seed/load.js";
import { checkEmailAuthKey, requireSharedKey, rotateEmailAuthKey } from "./email-key.js";
import { migrate } from "./migrate.js";
import { describeDatabase } from "./open.js";
import { seedDatabase } from "./seed.js";

const oldKeyEnv = `OLD_${emailAuthKeyEnv}`;

/** A key variable that must be set: its 64 hex characters as bytes. */
function requiredKey(hex: string | undefined, name: string): Buffer {
  if (!hex) throw new Error(`${name} is not set`);
  return parseKey(hex, name);
}

async function run(command: string | undefined, argv: string[], config: DatabaseCommandConfig): Promise<void> {
  const { url } = config;
  if (!url) throw new Error("DATABASE_URL is not set (postgres://user@host:port/database)");
  if (command === "seed") {
    useEmailAuthKey(config.emailAuthKey);
    requireSharedKey();
  }
  const where = describeDatabase(url);
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5_000 });
  try {
    if (command === "migrate") {
      const applied = await migrate(pool);
      console.log(applied.length === 0 ? "database is up to date" : `applied ${applied.join(", ")}`);
    } else if (command === "seed") {
      const { values } = parseArgs({ args: argv, options: { seed: { type: "string" }, "new-email-key": { type: "boolean" } } });
      const file = values.seed ?? demoSeedFile;
      const seed = loadSeed(file);
      await migrate(pool);
      // Running servers keep the database's key: a seed sealed with another would break their
      // saves. --new-email-key says the operator means it (a lost key): every server must then
      // be restarted with the new one, and the old one refuses to start.
      if (!values["new-email-key"]) {
        await checkEmailAuthKey(pool, where).catch((error: Error) => {
          throw new Error(`${error.message} (or replace every transport and the key with db:seed -- --new-email-key)`);
        });
      }
      await seedDatabase(pool, seed);
      console.log(`loaded ${file}: ${seed.applications.map((a) => a.id).join(", ")}`);
    } else if (command === "rotate-email-key") {
      const oldKey = requiredKey(config.oldEmailAuthKey, oldKeyEnv);
      const newKey = requiredKey(config.emailAuthKey, emailAuthKeyEnv);
      await migrate(pool);
      const count = await rotateEmailAuthKey(pool, oldKey, newKey, where);
      console.log(`re-sealed ${count} e-mail transport${count === 1 ? "" : "s"} with ${emailAuthKeyEnv}; start every server with it now`);
    } else {
      throw new Error(`unknown command ${command ?? "(none)"}: use migrate, seed or rotate-email-key`);
    }
  } finally {
    await pool.end();
  }
}

Promise.resolve()
  .then(() => run(process.argv[2], process.argv.slice(3), databaseCommandConfigFromEnv()))
  .catch((error: unknown) => {
    const message = error instanceof Error ? error.message || (error as { code?: string }).code || String(error) : String(error);
    console.error(`db: ${message.split("\n")[0]}`);
    process.exit(1);
  });
