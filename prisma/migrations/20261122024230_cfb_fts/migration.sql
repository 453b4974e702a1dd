-- Full-text index of CFBs for Umbra resolve (seed 001 §6.1), kept in sync by the database itself.
-- Hand-written (Prisma does not model FTS5); the tables are listed in SCHEMA_FILTER.externalTables
-- (packages/db/scripts/schema-engine.ts) so that diffs leave them alone.
--
-- External content: the index reads Cfb's own rows (by rowid) and stores only the inverted index.
-- Prisma rewrites a SQLite table to change it ("RedefineTables"), which drops these triggers and
-- renumbers rowids: a migration that redefines "Cfb" must end with the block below again (the
-- triggers with IF NOT EXISTS and the rebuild). packages/db/test/fts.test.ts checks the index
-- against the table after every migration.

CREATE VIRTUAL TABLE IF NOT EXISTS "CfbFts" USING fts5(
    title, summary, text, tags, entities,
    content='Cfb', content_rowid='rowid',
    tokenize='unicode61 remove_diacritics 2'
);

-- Term statistics (documents per term) for the query's reference score.
CREATE VIRTUAL TABLE IF NOT EXISTS "CfbFtsVocab" USING fts5vocab('CfbFts', 'row');

-- The number of indexed CFBs, kept by the same triggers: counting Cfb on every query would cost
-- a scan of the table.
CREATE TABLE IF NOT EXISTS "CfbFtsStats" ("id" INTEGER NOT NULL PRIMARY KEY, "docs" INTEGER NOT NULL);

CREATE TRIGGER IF NOT EXISTS "Cfb_fts_insert" AFTER INSERT ON "Cfb" BEGIN
    INSERT INTO "CfbFts" (rowid, title, summary, text, tags, entities)
    VALUES (new.rowid, new.title, new.summary, new.text, new.tags, new.entities);
    UPDATE "CfbFtsStats" SET "docs" = "docs" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER IF NOT EXISTS "Cfb_fts_delete" AFTER DELETE ON "Cfb" BEGIN
    INSERT INTO "CfbFts" ("CfbFts", rowid, title, summary, text, tags, entities)
    VALUES ('delete', old.rowid, old.title, old.summary, old.text, old.tags, old.entities);
    UPDATE "CfbFtsStats" SET "docs" = "docs" - 1 WHERE "id" = 1;
END;

-- Only the indexed columns: usage counters and access times do not touch the index.
CREATE TRIGGER IF NOT EXISTS "Cfb_fts_update" AFTER UPDATE OF title, summary, text, tags, entities ON "Cfb" BEGIN
    INSERT INTO "CfbFts" ("CfbFts", rowid, title, summary, text, tags, entities)
    VALUES ('delete', old.rowid, old.title, old.summary, old.text, old.tags, old.entities);
    INSERT INTO "CfbFts" (rowid, title, summary, text, tags, entities)
    VALUES (new.rowid, new.title, new.summary, new.text, new.tags, new.entities);
END;

-- Index what is already there, and count it.
INSERT INTO "CfbFts" ("CfbFts") VALUES ('rebuild');
INSERT OR REPLACE INTO "CfbFtsStats" ("id", "docs") VALUES (1, (SELECT COUNT(*) FROM "Cfb"));
