// `pnpm db:generate`: writes prisma/postgres/schema.prisma (derived from prisma/schema.prisma) and
// runs `prisma generate` for both, offline: one client per database product.
//
// Why the stub: Prisma 7's client needs no engine (a wasm query compiler ships with
// @prisma/client), but the CLI still tries to download the native schema engine before
// generating and fails without network. Pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing
// file skips the download; generate never runs it. The stub fails loudly in case something does.
// No prisma.config.ts is needed for generate (the schema path is passed explicitly).
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expectedPostgresSchema, postgresSchemaPaths } from "./postgres-schema";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const stubDir = mkdtempSync(path.join(tmpdir(), "solserver-prisma-"));
const stub = path.join(stubDir, "schema-engine-stub");
writeFileSync(
  stub,
  '#!/bin/sh\necho "schema engine stub: prisma migrate/db push are unavailable offline; use pnpm db:migrate" >&2\nexit 1\n',
);
chmodSync(stub, 0o755);

const repoRoot = path.resolve(packageDir, "../..");
const pg = postgresSchemaPaths(repoRoot);
const derived = expectedPostgresSchema(repoRoot);
mkdirSync(path.dirname(pg.target), { recursive: true });
if (!existsSync(pg.target) || readFileSync(pg.target, "utf8") !== derived) writeFileSync(pg.target, derived);

function generate(schema: string) {
  return spawnSync(path.join(packageDir, "node_modules/.bin/prisma"), ["generate", "--schema", schema], {
    cwd: packageDir,
    stdio: "inherit",
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: stub,
      // No update check / telemetry call to the (unreachable) Prisma servers.
      CHECKPOINT_DISABLE: "1",
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
    },
  });
}

let status = 0;
for (const schema of ["../../prisma/schema.prisma", "../../prisma/postgres/schema.prisma"]) {
  const result = generate(schema);
  if (result.error) throw result.error;
  status = result.status ?? 1;
  if (status !== 0) break;
}
rmSync(stubDir, { recursive: true, force: true });
process.exit(status);
