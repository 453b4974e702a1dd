// `pnpm db:seed`: migrate the database, then fill it with demo data if it has none.
import { migrateDatabase, resolveDatabaseUrl } from "@solserver/db";
import { openControlPlane } from "../src/control-plane";
import { seedDemo } from "../src/demo/seed-demo";

const databaseUrl = resolveDatabaseUrl();
await migrateDatabase(databaseUrl);
const { controlPlane, repos, db } = await openControlPlane({ databaseUrl });
try {
  const report = await seedDemo(repos, controlPlane);
  console.log(
    report.seeded
      ? `demo data: ${report.cfbs} CFBs, ${report.turns} chat turns, ${report.proposals} pending proposals`
      : "demo data: database already has CFBs, left as it is",
  );
} finally {
  await db.$disconnect();
}
