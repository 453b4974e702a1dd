-- CreateTable
CREATE TABLE "IdSequence" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "value" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "Thread" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "title" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "threadId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "packetId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Message_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Message_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ThreadMemento" (
    "threadId" TEXT NOT NULL PRIMARY KEY,
    "version" INTEGER NOT NULL DEFAULT 1,
    "payload" JSONB NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ThreadMemento_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Packet" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "threadId" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "messageWindowIds" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Packet_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Transmission" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "packetId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "modeLabel" TEXT NOT NULL,
    "routerDomain" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Transmission_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DeliveryAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "transmissionId" TEXT NOT NULL,
    "step" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "tokensIn" INTEGER,
    "tokensOut" INTEGER,
    "latencyMs" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DeliveryAttempt_transmissionId_fkey" FOREIGN KEY ("transmissionId") REFERENCES "Transmission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Response" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "transmissionId" TEXT NOT NULL,
    "attemptId" TEXT NOT NULL,
    "assistantText" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Response_transmissionId_fkey" FOREIGN KEY ("transmissionId") REFERENCES "Transmission" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Response_attemptId_fkey" FOREIGN KEY ("attemptId") REFERENCES "DeliveryAttempt" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ResponseMeta" (
    "responseId" TEXT NOT NULL PRIMARY KEY,
    "modeLabel" TEXT NOT NULL,
    "domainHints" JSONB NOT NULL,
    "usedCfbIds" JSONB NOT NULL,
    "ignoredCfbIds" JSONB NOT NULL,
    "assumptions" JSONB NOT NULL,
    "unknowns" JSONB NOT NULL,
    "missingCfbQueries" JSONB NOT NULL,
    "cfbSuggestions" JSONB NOT NULL,
    "claimMap" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ResponseMeta_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Cfb" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "domain" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "confidence" REAL NOT NULL,
    "title" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "text" TEXT,
    "tags" JSONB NOT NULL,
    "entities" JSONB NOT NULL,
    "trustTier" TEXT NOT NULL,
    "ttlDays" INTEGER NOT NULL DEFAULT 180,
    "reviewOnUse" BOOLEAN NOT NULL DEFAULT true,
    "sourceRefs" JSONB NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastAccessedAt" DATETIME
);

-- CreateTable
CREATE TABLE "CfbRevision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "cfbId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "snapshot" JSONB NOT NULL,
    "changeKind" TEXT NOT NULL,
    "promotionEventId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CfbRevision_cfbId_fkey" FOREIGN KEY ("cfbId") REFERENCES "Cfb" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CfbStats" (
    "cfbId" TEXT NOT NULL PRIMARY KEY,
    "usage30d" INTEGER NOT NULL DEFAULT 0,
    "usedByModel30d" INTEGER NOT NULL DEFAULT 0,
    "ignoredByModel30d" INTEGER NOT NULL DEFAULT 0,
    "positiveFeedback30d" INTEGER NOT NULL DEFAULT 0,
    "negativeFeedback30d" INTEGER NOT NULL DEFAULT 0,
    "correctionEvents30d" INTEGER NOT NULL DEFAULT 0,
    "unknownRateWhenInjected" REAL NOT NULL DEFAULT 0,
    "lastFeedbackAt" DATETIME,
    "hotness" REAL NOT NULL DEFAULT 0,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "CfbStats_cfbId_fkey" FOREIGN KEY ("cfbId") REFERENCES "Cfb" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CfbUsageEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "cfbId" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "routerDomain" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CfbUsageEvent_cfbId_fkey" FOREIGN KEY ("cfbId") REFERENCES "Cfb" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CfbUsageEvent_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HumanFeedback" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "responseId" TEXT NOT NULL,
    "cfbId" TEXT,
    "polarity" TEXT NOT NULL,
    "tag" TEXT,
    "comment" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "HumanFeedback_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "HumanFeedback_cfbId_fkey" FOREIGN KEY ("cfbId") REFERENCES "Cfb" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CoverageGap" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "routerDomain" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "lastSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "UmbraProposal" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "responseId" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "suggestionIndex" INTEGER NOT NULL,
    "op" TEXT NOT NULL,
    "targetCfbId" TEXT,
    "warnings" JSONB NOT NULL,
    "title" TEXT NOT NULL,
    "deltaSummary" TEXT NOT NULL,
    "proposedCfb" JSONB NOT NULL,
    "rationale" TEXT,
    "confidence" REAL NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" DATETIME,
    CONSTRAINT "UmbraProposal_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "UmbraResolveDecision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "proposalId" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "targetCfbId" TEXT,
    "scores" JSONB NOT NULL,
    "reasonCodes" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "UmbraResolveDecision_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "UmbraProposal" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PromotionEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "proposalId" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "packetId" TEXT NOT NULL,
    "transmissionId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "finalCfbId" TEXT,
    "editor" TEXT NOT NULL,
    "overrides" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PromotionEvent_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "UmbraProposal" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TraceRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "threadId" TEXT,
    "packetId" TEXT,
    "transmissionId" TEXT,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" DATETIME,
    CONSTRAINT "TraceRun_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TraceEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "traceRunId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "transmissionId" TEXT,
    "actor" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "metadata" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TraceEvent_traceRunId_fkey" FOREIGN KEY ("traceRunId") REFERENCES "TraceRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Thread_updatedAt_idx" ON "Thread"("updatedAt");

-- CreateIndex
CREATE INDEX "Message_threadId_createdAt_idx" ON "Message"("threadId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Packet_requestId_key" ON "Packet"("requestId");

-- CreateIndex
CREATE INDEX "Packet_threadId_createdAt_idx" ON "Packet"("threadId", "createdAt");

-- CreateIndex
CREATE INDEX "Transmission_packetId_idx" ON "Transmission"("packetId");

-- CreateIndex
CREATE UNIQUE INDEX "DeliveryAttempt_transmissionId_step_n_key" ON "DeliveryAttempt"("transmissionId", "step", "n");

-- CreateIndex
CREATE UNIQUE INDEX "Response_attemptId_key" ON "Response"("attemptId");

-- CreateIndex
CREATE INDEX "Response_transmissionId_idx" ON "Response"("transmissionId");

-- CreateIndex
CREATE INDEX "Cfb_domain_idx" ON "Cfb"("domain");

-- CreateIndex
CREATE INDEX "Cfb_updatedAt_idx" ON "Cfb"("updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "CfbRevision_cfbId_version_key" ON "CfbRevision"("cfbId", "version");

-- CreateIndex
CREATE INDEX "CfbUsageEvent_cfbId_createdAt_idx" ON "CfbUsageEvent"("cfbId", "createdAt");

-- CreateIndex
CREATE INDEX "CfbUsageEvent_responseId_idx" ON "CfbUsageEvent"("responseId");

-- CreateIndex
CREATE INDEX "HumanFeedback_cfbId_createdAt_idx" ON "HumanFeedback"("cfbId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "CoverageGap_routerDomain_kind_key_key" ON "CoverageGap"("routerDomain", "kind", "key");

-- CreateIndex
CREATE INDEX "UmbraProposal_status_createdAt_idx" ON "UmbraProposal"("status", "createdAt");

-- CreateIndex
CREATE INDEX "UmbraProposal_fingerprint_idx" ON "UmbraProposal"("fingerprint");

-- CreateIndex
CREATE INDEX "UmbraProposal_threadId_status_idx" ON "UmbraProposal"("threadId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "UmbraProposal_responseId_suggestionIndex_key" ON "UmbraProposal"("responseId", "suggestionIndex");

-- CreateIndex
CREATE INDEX "UmbraResolveDecision_proposalId_createdAt_idx" ON "UmbraResolveDecision"("proposalId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PromotionEvent_proposalId_key" ON "PromotionEvent"("proposalId");

-- CreateIndex
CREATE INDEX "TraceRun_threadId_startedAt_idx" ON "TraceRun"("threadId", "startedAt");

-- CreateIndex
CREATE INDEX "TraceRun_transmissionId_idx" ON "TraceRun"("transmissionId");

-- CreateIndex
CREATE UNIQUE INDEX "TraceEvent_traceRunId_seq_key" ON "TraceEvent"("traceRunId", "seq");
