// `npm run db:migrate` and `npm run db:seed -- [--seed FILE]` against DATABASE_URL: apply the
// pending migrations; load a seed (the demo seed by default) in place of what is stored.
// Exits 1 with a one-line reason when the database cannot be reached or the seed is bad.
import { parseArgs } from "node:util";
import pg from "pg";
import { demoSeedFile, loadSeed } from "../../seed/load.js";
import { migrate } from "./migrate.js";
import { seedDatabase } from "./seed.js";

async function run(command: string | undefined, argv: string[]): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (postgres://user@host:port/database)");
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5_000 });
  try {
    if (command === "migrate") {
      const applied = await migrate(pool);
      console.log(applied.length === 0 ? "database is up to date" : `applied ${applied.join(", ")}`);
    } else if (command === "seed") {
      const { values } = parseArgs({ args: argv, options: { seed: { type: "string" } } });
      const file = values.seed ?? demoSeedFile;
      const seed = loadSeed(file);
      await migrate(pool);
      await seedDatabase(pool, seed);
      console.log(`loaded ${file}: ${seed.applications.map((a) => a.id).join(", ")}`);
    } else {
      throw new Error(`unknown command ${command ?? "(none)"}: use migrate or seed`);
    }
  } finally {
    await pool.end();
  }
}

run(process.argv[2], process.argv.slice(3)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message || (error as { code?: string }).code || String(error) : String(error);
  console.error(`db: ${message.split("\n")[0]}`);
  process.exit(1);
});
