// `pnpm db:seed`: migrate the database named by the environment, then load the demo data.
import { migrateDatabase } from "@solserver/db";
import { openControlPlaneFromEnv } from "../src/control-plane";
import { seedDemo } from "../src/demo/seed-demo";
import { loadServerEnv } from "../src/env";

const env = loadServerEnv();
await migrateDatabase(env.DATABASE_URL);
const { controlPlane, repos, db } = await openControlPlaneFromEnv(env);
try {
  const report = await seedDemo(repos, controlPlane);
  const messages = {
    loaded: `demo data loaded: ${report.cfbs} CFBs, ${report.turns} chat turns, ${report.proposals} pending proposals`,
    "already-present": "demo data already present, nothing to do",
    "skipped-foreign-data": "the database already holds other knowledge; demo data not loaded",
  };
  console.log(messages[report.outcome]);
} finally {
  await db.$disconnect();
}
