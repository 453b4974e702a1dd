// `pnpm db:seed` (the first-run setup): migrate the database named by the environment, create
// the first accounts, then load the demo data. Credentials of accounts it creates are printed
// once; re-running changes nothing that exists.
import { migrateDatabase } from "@solserver/db";
import { createPasswordAccount } from "../src/auth/auth";
import { openControlPlaneFromEnv } from "../src/control-plane";
import { ensureFirstRunAccounts } from "../src/demo/accounts";
import { seedDemo } from "../src/demo/seed-demo";
import { loadServerEnv } from "../src/env";

const env = loadServerEnv();
await migrateDatabase(env.DATABASE_URL);
// Without the sentence model: the seed would start embedding in the background and exit under it
// (holding the backfill's lease for a minute); the server, or `pnpm embeddings`, embeds the demo.
const { deps, repos, auth, db } = await openControlPlaneFromEnv({ ...env, embeddings: null });
try {
  if (!auth) throw new Error("auth is not configured");

  const accounts = await ensureFirstRunAccounts(repos, (u) => createPasswordAccount(auth, u), process.env);
  for (const a of accounts.created) console.log(`created ${a.role} account: ${a.email} / ${a.password}`);
  const report = await seedDemo(deps, accounts.user);
  const messages = {
    loaded: `demo data loaded: ${report.cfbs} CFBs, ${report.turns} chat turns, ${report.proposals} pending proposals`,
    "already-present": "demo data already present, nothing to do",
    "skipped-foreign-data": "the database already holds other knowledge; demo data not loaded",
  };
  console.log(messages[report.outcome]);
} finally {
  await db.$disconnect();
}
