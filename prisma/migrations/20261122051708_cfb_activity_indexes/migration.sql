-- CreateIndex
CREATE INDEX "PromotionEvent_finalCfbId_idx" ON "PromotionEvent"("finalCfbId");

-- CreateIndex
CREATE INDEX "UmbraProposal_targetCfbId_createdAt_idx" ON "UmbraProposal"("targetCfbId", "createdAt");
