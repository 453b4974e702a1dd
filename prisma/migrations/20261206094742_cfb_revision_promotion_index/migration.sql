-- CreateIndex
CREATE INDEX "CfbRevision_promotionEventId_idx" ON "CfbRevision"("promotionEventId");
