// `db:copy` on PostgreSQL (copy/copy-support.ts says what each dialect provides): the catalog of
// the current schema, and sequences (autoincrement columns) moved past the copied ids.
import pg from "pg";
import type { TCatalogColumn, TCopySupport, TForeignKey } from "../../copy/copy-support";
import { Prisma } from "../../generated/prisma/client";

const UNDEFINED_DATABASE = "3D000";

/** A quoted identifier ("Cfb"), for names read from the catalog. */
const ident = (name: string) => Prisma.raw(`"${name.replaceAll('"', '""')}"`);

export const postgresCopySupport: TCopySupport = {
  // The wire protocol counts parameters in 16 bits.
  maxParameters: 65_535,

  async exists(databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
    try {
      await client.connect();
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === UNDEFINED_DATABASE) return false;
      throw error;
    } finally {
      await client.end().catch(() => {});
    }
  },

  columns: (sql) =>
    sql.query<TCatalogColumn>(
      Prisma.sql`SELECT c."relname" AS "table", a."attname" AS "column",
          COALESCE((SELECT k."n" FROM unnest(i."indkey"::int2[]) WITH ORDINALITY AS k("attnum", "n")
            WHERE k."attnum" = a."attnum"), 0) AS "pk"
        FROM pg_class c
        JOIN pg_attribute a ON a."attrelid" = c."oid" AND a."attnum" > 0 AND NOT a."attisdropped"
        LEFT JOIN pg_index i ON i."indrelid" = c."oid" AND i."indisprimary"
        WHERE c."relkind" IN ('r', 'p') AND c."relnamespace" = current_schema()::regnamespace
        ORDER BY c."relname", a."attnum"`,
    ),

  foreignKeys: (sql) =>
    sql.query<TForeignKey>(
      Prisma.sql`SELECT s."relname" AS "table", a."attname" AS "column", r."relname" AS "references"
        FROM pg_constraint k
        JOIN pg_class s ON s."oid" = k."conrelid"
        JOIN pg_class r ON r."oid" = k."confrelid"
        JOIN pg_attribute a ON a."attrelid" = k."conrelid" AND a."attnum" = ANY (k."conkey")
        WHERE k."contype" = 'f' AND k."connamespace" = current_schema()::regnamespace`,
    ),

  // Prisma's foreign keys are not DEFERRABLE: the copy orders tables so that they hold.
  beforeCopy: async () => {},

  // Rows went in with their ids, which does not advance a serial column's sequence: move each
  // past the largest id, so the next row the app writes gets the next number.
  async afterCopy(tx) {
    const serials = await tx.query<{ table: string; column: string; sequence: string }>(
      Prisma.sql`SELECT c."relname" AS "table", a."attname" AS "column",
          pg_get_serial_sequence(format('%I.%I', current_schema(), c."relname"), a."attname") AS "sequence"
        FROM pg_class c
        JOIN pg_attribute a ON a."attrelid" = c."oid" AND a."attnum" > 0 AND NOT a."attisdropped"
        WHERE c."relkind" IN ('r', 'p') AND c."relnamespace" = current_schema()::regnamespace
          AND pg_get_serial_sequence(format('%I.%I', current_schema(), c."relname"), a."attname") IS NOT NULL`,
    );
    for (const s of serials)
      await tx.query(
        Prisma.sql`SELECT setval(${s.sequence}::regclass, COALESCE(MAX(${ident(s.column)}), 1), MAX(${ident(s.column)}) IS NOT NULL)
          FROM ${ident(s.table)}`,
      );
  },
};
