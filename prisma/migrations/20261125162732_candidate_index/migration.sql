-- CreateTable
CREATE TABLE "CfbChange" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "cfbId" TEXT NOT NULL,
    "token" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "CfbEmbedding" (
    "cfbId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "dims" INTEGER NOT NULL,
    "vector" BLOB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("cfbId", "model")
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Cfb" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "domain" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "confidence" REAL NOT NULL,
    "title" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "text" TEXT,
    "tags" JSONB NOT NULL,
    "entities" JSONB NOT NULL,
    "trustTier" TEXT NOT NULL,
    "ttlDays" INTEGER NOT NULL DEFAULT 180,
    "reviewOnUse" BOOLEAN NOT NULL DEFAULT true,
    "sourceRefs" JSONB NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastAccessedAt" DATETIME,
    "mergedIntoId" TEXT,
    "seq" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_Cfb" ("confidence", "createdAt", "domain", "entities", "id", "kind", "lastAccessedAt", "mergedIntoId", "reviewOnUse", "sourceRefs", "summary", "tags", "text", "title", "trustTier", "ttlDays", "updatedAt", "version") SELECT "confidence", "createdAt", "domain", "entities", "id", "kind", "lastAccessedAt", "mergedIntoId", "reviewOnUse", "sourceRefs", "summary", "tags", "text", "title", "trustTier", "ttlDays", "updatedAt", "version" FROM "Cfb";
DROP TABLE "Cfb";
ALTER TABLE "new_Cfb" RENAME TO "Cfb";
CREATE INDEX "Cfb_domain_idx" ON "Cfb"("domain");
CREATE INDEX "Cfb_updatedAt_idx" ON "Cfb"("updatedAt");
CREATE INDEX "Cfb_mergedIntoId_idx" ON "Cfb"("mergedIntoId");
CREATE INDEX "Cfb_createdAt_seq_idx" ON "Cfb"("createdAt", "seq");
CREATE TABLE "new_UmbraProposal" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "responseId" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "suggestionIndex" INTEGER NOT NULL,
    "op" TEXT NOT NULL,
    "targetCfbId" TEXT,
    "warnings" JSONB NOT NULL,
    "title" TEXT NOT NULL,
    "deltaSummary" TEXT NOT NULL,
    "proposedCfb" JSONB NOT NULL,
    "rationale" TEXT,
    "confidence" REAL NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "domain" TEXT NOT NULL DEFAULT '',
    "latestDecision" TEXT,
    "seq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" DATETIME,
    CONSTRAINT "UmbraProposal_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "UmbraProposal_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_UmbraProposal" ("confidence", "createdAt", "decidedAt", "deltaSummary", "domain", "fingerprint", "id", "latestDecision", "op", "proposedCfb", "rationale", "responseId", "status", "suggestionIndex", "targetCfbId", "threadId", "title", "warnings") SELECT "confidence", "createdAt", "decidedAt", "deltaSummary", "domain", "fingerprint", "id", "latestDecision", "op", "proposedCfb", "rationale", "responseId", "status", "suggestionIndex", "targetCfbId", "threadId", "title", "warnings" FROM "UmbraProposal";
DROP TABLE "UmbraProposal";
ALTER TABLE "new_UmbraProposal" RENAME TO "UmbraProposal";
CREATE INDEX "UmbraProposal_status_createdAt_idx" ON "UmbraProposal"("status", "createdAt");
CREATE INDEX "UmbraProposal_createdAt_idx" ON "UmbraProposal"("createdAt");
CREATE INDEX "UmbraProposal_confidence_createdAt_idx" ON "UmbraProposal"("confidence", "createdAt");
CREATE INDEX "UmbraProposal_status_latestDecision_createdAt_idx" ON "UmbraProposal"("status", "latestDecision", "createdAt");
CREATE INDEX "UmbraProposal_status_domain_createdAt_idx" ON "UmbraProposal"("status", "domain", "createdAt");
CREATE INDEX "UmbraProposal_status_confidence_createdAt_idx" ON "UmbraProposal"("status", "confidence", "createdAt");
CREATE INDEX "UmbraProposal_fingerprint_idx" ON "UmbraProposal"("fingerprint");
CREATE INDEX "UmbraProposal_threadId_status_createdAt_idx" ON "UmbraProposal"("threadId", "status", "createdAt");
CREATE INDEX "UmbraProposal_targetCfbId_createdAt_idx" ON "UmbraProposal"("targetCfbId", "createdAt");
CREATE UNIQUE INDEX "UmbraProposal_responseId_suggestionIndex_key" ON "UmbraProposal"("responseId", "suggestionIndex");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "CfbEmbedding_model_version_idx" ON "CfbEmbedding"("model", "version");

-- Hand-written from here (Prisma does not model triggers).

-- The number in each id, for ordering (ids order as text: "CFB-10000" < "CFB-9999").
UPDATE "Cfb" SET "seq" = CAST(substr("id", instr("id", '-') + 1) AS INTEGER);
UPDATE "UmbraProposal" SET "seq" = CAST(substr("id", instr("id", '-') + 1) AS INTEGER);

-- Redefining "Cfb" above dropped the full-text index's triggers and renumbered its rowids:
-- re-create them (as in *_cfb_fts) and rebuild the index.
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

CREATE TRIGGER IF NOT EXISTS "Cfb_fts_update" AFTER UPDATE OF title, summary, text, tags, entities ON "Cfb" BEGIN
    INSERT INTO "CfbFts" ("CfbFts", rowid, title, summary, text, tags, entities)
    VALUES ('delete', old.rowid, old.title, old.summary, old.text, old.tags, old.entities);
    INSERT INTO "CfbFts" (rowid, title, summary, text, tags, entities)
    VALUES (new.rowid, new.title, new.summary, new.text, new.tags, new.entities);
END;

INSERT INTO "CfbFts" ("CfbFts") VALUES ('rebuild');
INSERT OR REPLACE INTO "CfbFtsStats" ("id", "docs") VALUES (1, (SELECT COUNT(*) FROM "Cfb"));

-- The change log the candidate index follows (packages/db/src/candidates/candidate-index.ts):
-- one entry per written CFB row. Only columns the index holds count (usage counters and access
-- times do not). The newest 50,000 entries are kept; a process further behind rebuilds.
CREATE TRIGGER IF NOT EXISTS "Cfb_change_insert" AFTER INSERT ON "Cfb" BEGIN
    INSERT INTO "CfbChange" ("cfbId", "token") VALUES (new."id", lower(hex(randomblob(8))));
END;

CREATE TRIGGER IF NOT EXISTS "Cfb_change_update" AFTER UPDATE OF domain, title, summary, text, tags, entities, "mergedIntoId", version ON "Cfb" BEGIN
    INSERT INTO "CfbChange" ("cfbId", "token") VALUES (new."id", lower(hex(randomblob(8))));
END;

CREATE TRIGGER IF NOT EXISTS "Cfb_change_delete" AFTER DELETE ON "Cfb" BEGIN
    INSERT INTO "CfbChange" ("cfbId", "token") VALUES (old."id", lower(hex(randomblob(8))));
END;

CREATE TRIGGER IF NOT EXISTS "CfbChange_prune" AFTER INSERT ON "CfbChange" BEGIN
    DELETE FROM "CfbChange" WHERE "seq" <= new."seq" - 50000;
END;
