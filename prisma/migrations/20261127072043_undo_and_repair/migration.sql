-- Undo and repair (issue 19): retiring a CFB, and reopening a rejected proposal. Additive only
-- (ALTER TABLE ... ADD COLUMN and indexes): no table is rewritten, so no trigger is dropped.

-- A retired CFB: out of retrieval, resolve and the default list until it is restored.
ALTER TABLE "Cfb" ADD COLUMN "retiredAt" DATETIME;

-- A proposal's decisions: a reopened rejection is kept (stamped reopenedAt) and the next decision
-- is the next round, so (proposalId, round) replaces the unique proposalId.
ALTER TABLE "PromotionEvent" ADD COLUMN "round" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "PromotionEvent" ADD COLUMN "reopenedAt" DATETIME;
ALTER TABLE "PromotionEvent" ADD COLUMN "reopenedById" TEXT;
DROP INDEX "PromotionEvent_proposalId_key";
CREATE UNIQUE INDEX "PromotionEvent_proposalId_round_key" ON "PromotionEvent"("proposalId", "round");
