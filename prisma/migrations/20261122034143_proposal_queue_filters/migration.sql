-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" DATETIME,
    CONSTRAINT "UmbraProposal_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "UmbraProposal_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_UmbraProposal" ("confidence", "createdAt", "decidedAt", "deltaSummary", "fingerprint", "id", "op", "proposedCfb", "rationale", "responseId", "status", "suggestionIndex", "targetCfbId", "threadId", "title", "warnings") SELECT "confidence", "createdAt", "decidedAt", "deltaSummary", "fingerprint", "id", "op", "proposedCfb", "rationale", "responseId", "status", "suggestionIndex", "targetCfbId", "threadId", "title", "warnings" FROM "UmbraProposal";
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
CREATE UNIQUE INDEX "UmbraProposal_responseId_suggestionIndex_key" ON "UmbraProposal"("responseId", "suggestionIndex");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Backfill the queue's filter columns for existing proposals (hand-added).
UPDATE "UmbraProposal" SET "domain" = COALESCE(json_extract("proposedCfb", '$.domain'), '');
UPDATE "UmbraProposal" SET "latestDecision" = (
    SELECT d."decision" FROM "UmbraResolveDecision" d WHERE d."proposalId" = "UmbraProposal"."id"
    ORDER BY d."createdAt" DESC, d."id" DESC LIMIT 1
);
