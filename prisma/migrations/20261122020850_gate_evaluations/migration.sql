-- CreateTable
CREATE TABLE "GateEvaluation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "source" TEXT NOT NULL,
    "actorId" TEXT,
    "label" TEXT,
    "threadId" TEXT,
    "transmissionId" TEXT,
    "attemptN" INTEGER,
    "delivered" BOOLEAN,
    "mode" TEXT NOT NULL,
    "strict" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "reasons" JSONB NOT NULL,
    "reasonCodes" JSONB NOT NULL,
    "metrics" JSONB NOT NULL,
    "policies" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "GateEvaluation_createdAt_idx" ON "GateEvaluation"("createdAt");

-- CreateIndex
CREATE INDEX "GateEvaluation_actorId_createdAt_idx" ON "GateEvaluation"("actorId", "createdAt");

-- CreateIndex
CREATE INDEX "GateEvaluation_threadId_createdAt_idx" ON "GateEvaluation"("threadId", "createdAt");

-- CreateIndex
CREATE INDEX "GateEvaluation_transmissionId_idx" ON "GateEvaluation"("transmissionId");
