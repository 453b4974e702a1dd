-- CreateTable
CREATE TABLE "RepetitionCounter" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "routerDomain" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "firstSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "triggeredAt" DATETIME,
    "dismissedAt" DATETIME
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_UmbraResolveDecision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "proposalId" TEXT NOT NULL,
    "stage" TEXT NOT NULL DEFAULT 'created',
    "fingerprint" TEXT NOT NULL DEFAULT '',
    "decision" TEXT NOT NULL,
    "targetCfbId" TEXT,
    "mergeCfbIds" JSONB,
    "scores" JSONB NOT NULL,
    "reasonCodes" JSONB NOT NULL,
    "hysteresis" BOOLEAN NOT NULL DEFAULT false,
    "modelOp" TEXT,
    "modelTargetCfbId" TEXT,
    "disagreement" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "UmbraResolveDecision_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "UmbraProposal" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_UmbraResolveDecision" ("createdAt", "decision", "id", "proposalId", "reasonCodes", "scores", "targetCfbId") SELECT "createdAt", "decision", "id", "proposalId", "reasonCodes", "scores", "targetCfbId" FROM "UmbraResolveDecision";
DROP TABLE "UmbraResolveDecision";
ALTER TABLE "new_UmbraResolveDecision" RENAME TO "UmbraResolveDecision";
CREATE INDEX "UmbraResolveDecision_proposalId_createdAt_idx" ON "UmbraResolveDecision"("proposalId", "createdAt");
CREATE INDEX "UmbraResolveDecision_fingerprint_createdAt_idx" ON "UmbraResolveDecision"("fingerprint", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "RepetitionCounter_triggeredAt_idx" ON "RepetitionCounter"("triggeredAt");

-- CreateIndex
CREATE UNIQUE INDEX "RepetitionCounter_kind_routerDomain_key_key" ON "RepetitionCounter"("kind", "routerDomain", "key");
