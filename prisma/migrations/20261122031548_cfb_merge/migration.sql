-- AlterTable
ALTER TABLE "Cfb" ADD COLUMN "mergedIntoId" TEXT;

-- CreateIndex
CREATE INDEX "Cfb_mergedIntoId_idx" ON "Cfb"("mergedIntoId");
