-- AlterTable
ALTER TABLE "UmbraProposal" ADD COLUMN "twinOfId" TEXT;

-- CreateIndex
CREATE INDEX "UmbraProposal_twinOfId_idx" ON "UmbraProposal"("twinOfId");
