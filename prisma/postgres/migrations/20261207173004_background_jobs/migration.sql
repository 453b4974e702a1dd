-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "key" TEXT,
    "data" JSONB NOT NULL,
    "state" TEXT NOT NULL,
    "retryCount" INTEGER NOT NULL DEFAULT 0,
    "retryLimit" INTEGER NOT NULL,
    "retryDelayMs" INTEGER NOT NULL,
    "expireMs" INTEGER NOT NULL,
    "startAfter" TIMESTAMPTZ(3) NOT NULL,
    "lockedUntil" TIMESTAMPTZ(3),
    "error" TEXT,
    "output" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Job_state_startAfter_idx" ON "Job"("state", "startAfter");

-- CreateIndex
CREATE INDEX "Job_name_key_state_idx" ON "Job"("name", "key", "state");

-- CreateIndex
CREATE INDEX "Job_createdAt_idx" ON "Job"("createdAt");
