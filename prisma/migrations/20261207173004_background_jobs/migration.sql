-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "key" TEXT,
    "data" JSONB NOT NULL,
    "state" TEXT NOT NULL,
    "retryCount" INTEGER NOT NULL DEFAULT 0,
    "retryLimit" INTEGER NOT NULL,
    "retryDelayMs" INTEGER NOT NULL,
    "expireMs" INTEGER NOT NULL,
    "startAfter" DATETIME NOT NULL,
    "lockedUntil" DATETIME,
    "error" TEXT,
    "output" JSONB,
    "createdAt" DATETIME NOT NULL,
    "startedAt" DATETIME,
    "finishedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "Job_state_startAfter_idx" ON "Job"("state", "startAfter");

-- CreateIndex
CREATE INDEX "Job_name_key_state_idx" ON "Job"("name", "key", "state");

-- CreateIndex
CREATE INDEX "Job_createdAt_idx" ON "Job"("createdAt");
