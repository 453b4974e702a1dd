-- AlterTable
ALTER TABLE "WorkflowRun" ADD COLUMN     "deadlineAt" TIMESTAMPTZ(3),
ADD COLUMN     "leaseExpiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "leaseId" TEXT,
ADD COLUMN     "leaseOwner" TEXT,
ADD COLUMN     "queue" TEXT;

-- CreateIndex
CREATE INDEX "WorkflowRun_status_queue_leaseExpiresAt_idx" ON "WorkflowRun"("status", "queue", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "WorkflowRun_status_deadlineAt_idx" ON "WorkflowRun"("status", "deadlineAt");
