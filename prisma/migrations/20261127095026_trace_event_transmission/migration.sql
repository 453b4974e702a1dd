-- CreateIndex
CREATE INDEX "TraceEvent_transmissionId_idx" ON "TraceEvent"("transmissionId");
