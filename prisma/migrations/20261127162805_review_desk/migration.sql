-- AlterTable
ALTER TABLE "PromotionEvent" ADD COLUMN "reason" TEXT;

-- AlterTable
ALTER TABLE "UmbraProposal" ADD COLUMN "assigneeId" TEXT;

-- CreateTable
CREATE TABLE "ProposalComment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "proposalId" TEXT NOT NULL,
    "authorId" TEXT,
    "kind" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ProposalComment_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "UmbraProposal" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ProposalComment_proposalId_createdAt_idx" ON "ProposalComment"("proposalId", "createdAt");

-- CreateIndex
CREATE INDEX "UmbraProposal_status_assigneeId_createdAt_idx" ON "UmbraProposal"("status", "assigneeId", "createdAt");
