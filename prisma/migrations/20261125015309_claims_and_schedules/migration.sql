-- AlterTable
ALTER TABLE "ResponseMeta" ADD COLUMN "claimCheck" JSONB;

-- CreateTable
CREATE TABLE "WorkflowSchedule" (
    "workflow" TEXT NOT NULL PRIMARY KEY,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "cadence" TEXT NOT NULL,
    "timeOfDay" TEXT NOT NULL,
    "weekday" INTEGER,
    "nextRunAt" DATETIME,
    "runAsId" TEXT,
    "updatedAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "WorkflowScheduleRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflow" TEXT NOT NULL,
    "dueAt" DATETIME NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "outcome" TEXT NOT NULL,
    "runId" TEXT,
    "detail" TEXT,
    CONSTRAINT "WorkflowScheduleRun_workflow_fkey" FOREIGN KEY ("workflow") REFERENCES "WorkflowSchedule" ("workflow") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "WorkflowScheduleRun_workflow_startedAt_idx" ON "WorkflowScheduleRun"("workflow", "startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowScheduleRun_workflow_dueAt_key" ON "WorkflowScheduleRun"("workflow", "dueAt");
