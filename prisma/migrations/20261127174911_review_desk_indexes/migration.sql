-- CreateIndex
CREATE INDEX "UmbraProposal_status_twinOfId_domain_createdAt_idx" ON "UmbraProposal"("status", "twinOfId", "domain", "createdAt");

-- CreateIndex
CREATE INDEX "UmbraProposal_status_decidedAt_idx" ON "UmbraProposal"("status", "decidedAt");
