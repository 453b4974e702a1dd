-- Hand-written (Prisma models neither functions nor triggers): what SQLite's migrations do with
-- FTS5 and triggers, for PostgreSQL. "CfbSearch" is listed in POSTGRES_EXTERNAL_TABLES
-- (packages/db/src/dialect/postgres/external-tables.ts) so that diffs leave it alone.

-- The words of a CFB as /cfbs search sees them: title, summary, text, tags and entities, lower
-- case, split on anything that is not a letter or a digit (SQLite's unicode61 tokenizer splits
-- the same way), no stemming and no stop words ('simple'), so a search word matches exactly the
-- CFBs that SQLite would match.
CREATE FUNCTION "solserver_cfb_document"(title TEXT, summary TEXT, body TEXT, tags JSONB, entities JSONB)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('simple', regexp_replace(lower(
    coalesce(title, '') || ' ' || coalesce(summary, '') || ' ' || coalesce(body, '') || ' ' ||
    coalesce((SELECT string_agg(value, ' ') FROM jsonb_array_elements_text(
      CASE jsonb_typeof(tags) WHEN 'array' THEN tags ELSE '[]'::jsonb END)), '') || ' ' ||
    coalesce((SELECT string_agg(value, ' ') FROM jsonb_array_elements_text(
      CASE jsonb_typeof(entities) WHEN 'array' THEN entities ELSE '[]'::jsonb END)), '')
  ), '[^[:alnum:]]+', ' ', 'g'))
$$;

-- The full-text index of CFBs: one row per CFB, kept by the trigger below, searched through GIN.
CREATE TABLE "CfbSearch" (
    "cfbId" TEXT NOT NULL PRIMARY KEY REFERENCES "Cfb"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "document" tsvector NOT NULL
);
CREATE INDEX "CfbSearch_document_idx" ON "CfbSearch" USING GIN ("document");

CREATE FUNCTION "solserver_cfb_search_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CfbSearch" ("cfbId", "document")
  VALUES (NEW."id", "solserver_cfb_document"(NEW."title", NEW."summary", NEW."text", NEW."tags", NEW."entities"))
  ON CONFLICT ("cfbId") DO UPDATE SET "document" = EXCLUDED."document";
  RETURN NULL;
END $$;

-- Only the indexed columns: usage counters and access times do not touch the index.
CREATE TRIGGER "Cfb_search_insert" AFTER INSERT ON "Cfb"
  FOR EACH ROW EXECUTE FUNCTION "solserver_cfb_search_sync"();
CREATE TRIGGER "Cfb_search_update" AFTER UPDATE OF "title", "summary", "text", "tags", "entities" ON "Cfb"
  FOR EACH ROW EXECUTE FUNCTION "solserver_cfb_search_sync"();

-- The change log the candidate index follows (packages/db/src/candidates/candidate-index.ts):
-- one entry per written CFB row, for the columns the index holds. Readers take the entries after
-- the last seq they applied, so seqs must become visible in order: concurrent transactions could
-- commit a later seq first, and a reader would skip the earlier one for good. The transaction-
-- scoped advisory lock makes CFB writers take their seqs one after another, each held to commit.
-- The newest 50,000 entries are kept; a process further behind rebuilds.
CREATE FUNCTION "solserver_cfb_change_log"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  written TEXT := CASE WHEN TG_OP = 'DELETE' THEN OLD."id" ELSE NEW."id" END;
  logged INTEGER;
BEGIN
  PERFORM pg_advisory_xact_lock(7101984001);
  INSERT INTO "CfbChange" ("cfbId", "token")
  VALUES (written, substr(replace(gen_random_uuid()::text, '-', ''), 1, 16))
  RETURNING "seq" INTO logged;
  DELETE FROM "CfbChange" WHERE "seq" <= logged - 50000;
  RETURN NULL;
END $$;

CREATE TRIGGER "Cfb_change_insert" AFTER INSERT ON "Cfb"
  FOR EACH ROW EXECUTE FUNCTION "solserver_cfb_change_log"();
CREATE TRIGGER "Cfb_change_update"
  AFTER UPDATE OF "domain", "title", "summary", "text", "tags", "entities", "mergedIntoId", "version" ON "Cfb"
  FOR EACH ROW EXECUTE FUNCTION "solserver_cfb_change_log"();
CREATE TRIGGER "Cfb_change_delete" AFTER DELETE ON "Cfb"
  FOR EACH ROW EXECUTE FUNCTION "solserver_cfb_change_log"();
