// The PostgreSQL schema is derived from prisma/schema.prisma, never edited by hand: one source of
// truth for the data model. `pnpm db:generate` writes prisma/postgres/schema.prisma with it, and
// a test fails when the committed file differs from what this function makes.
//
// What changes: the provider, the client's output folder, and native types where they help:
// every DateTime is `timestamptz(3)` (an instant, the same whatever the session's time zone), and
// Json is PostgreSQL's `jsonb` (Prisma's default there). Field names and scalar types stay the
// same, so both generated clients have the same TypeScript shape.
import { readFileSync } from "node:fs";
import path from "node:path";

const HEADER = "// GENERATED from prisma/schema.prisma by `pnpm db:generate`: edit that file, not this one.\n\n";

function postgresSchemaFrom(sqliteSchema: string): string {
  let out = sqliteSchema
    .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
    .replace(
      /output\s*=\s*"\.\.\/packages\/db\/src\/generated\/prisma"/,
      'output       = "../../packages/db/src/generated/prisma-postgres"',
    );
  if (out === sqliteSchema) throw new Error("postgres schema: provider or output line not found");
  // `name DateTime[?] [attributes] [// comment]` -> the same with @db.Timestamptz(3) before the comment.
  out = out.replace(/^(\s+\w+\s+DateTime\??)([^\n]*?)(\s*\/\/[^\n]*)?$/gm, (_m, head, attrs, comment) => {
    return `${head}${attrs} @db.Timestamptz(3)${comment ?? ""}`;
  });
  return HEADER + out;
}

export function postgresSchemaPaths(repoRoot: string) {
  return {
    source: path.join(repoRoot, "prisma/schema.prisma"),
    target: path.join(repoRoot, "prisma/postgres/schema.prisma"),
    migrations: path.join(repoRoot, "prisma/postgres/migrations"),
  };
}

export function expectedPostgresSchema(repoRoot: string): string {
  return postgresSchemaFrom(readFileSync(postgresSchemaPaths(repoRoot).source, "utf8"));
}
