-- AlterTable
ALTER TABLE "WorkflowRun" ADD COLUMN "deadlineAt" DATETIME;
ALTER TABLE "WorkflowRun" ADD COLUMN "leaseExpiresAt" DATETIME;
ALTER TABLE "WorkflowRun" ADD COLUMN "leaseId" TEXT;
ALTER TABLE "WorkflowRun" ADD COLUMN "leaseOwner" TEXT;
ALTER TABLE "WorkflowRun" ADD COLUMN "queue" TEXT;

-- CreateIndex
CREATE INDEX "WorkflowRun_status_queue_leaseExpiresAt_idx" ON "WorkflowRun"("status", "queue", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "WorkflowRun_status_deadlineAt_idx" ON "WorkflowRun"("status", "deadlineAt");
