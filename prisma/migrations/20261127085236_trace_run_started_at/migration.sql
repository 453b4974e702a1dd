-- CreateIndex
CREATE INDEX "TraceRun_startedAt_idx" ON "TraceRun"("startedAt");
