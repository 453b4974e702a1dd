// `pnpm db:stats`: recomputes every CFB's stats (usage, used / ignored, feedback, unknown rate,
// hotness) from the last 30 days of events. Turns and feedback keep the stats up to date as they
// happen; this applies the 30-day window (events that aged out) and repairs any drift. Safe to
// run at any time, e.g. daily from cron.
import { createPrismaClient } from "../src/client";
import { resolveDatabaseUrl } from "../src/database-url";
import { databaseLabel } from "../src/dialect";
import { createRepositories } from "../src/repositories";

const url = resolveDatabaseUrl();
const started = Date.now();
const db = await createPrismaClient(url);
try {
  const count = await createRepositories(db).stats.rebuild();
  console.log(
    `CFB stats rebuilt for ${count} CFBs from the last 30 days of events (${databaseLabel(url)}, ${Date.now() - started} ms)`,
  );
} catch (error) {
  console.error(`db:stats failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
