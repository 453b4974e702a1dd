-- CreateTable
CREATE TABLE "IdSequence" (
    "name" TEXT NOT NULL,
    "value" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "IdSequence_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "role" TEXT NOT NULL DEFAULT 'user',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "token" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "userId" TEXT NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "accessToken" TEXT,
    "refreshToken" TEXT,
    "idToken" TEXT,
    "accessTokenExpiresAt" TIMESTAMPTZ(3),
    "refreshTokenExpiresAt" TIMESTAMPTZ(3),
    "scope" TEXT,
    "password" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Verification" (
    "id" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3),
    "updatedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Verification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL,
    "actorUserId" TEXT,
    "actorEmail" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "details" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RateLimitBucket" (
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "RateLimitBucket_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "Thread" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "ownerId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "procedureSystemId" TEXT,
    "procedureBoundAt" TIMESTAMPTZ(3),

    CONSTRAINT "Thread_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "packetId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ThreadMemento" (
    "threadId" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "payload" JSONB NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ThreadMemento_pkey" PRIMARY KEY ("threadId")
);

-- CreateTable
CREATE TABLE "ConversationContext" (
    "threadId" TEXT NOT NULL,
    "systemId" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "state" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ConversationContext_pkey" PRIMARY KEY ("threadId")
);

-- CreateTable
CREATE TABLE "Packet" (
    "id" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "callerId" TEXT NOT NULL DEFAULT '',
    "requestId" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "messageWindowIds" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Packet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Transmission" (
    "id" TEXT NOT NULL,
    "packetId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "modeLabel" TEXT NOT NULL,
    "routerDomain" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Transmission_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DeliveryAttempt" (
    "id" TEXT NOT NULL,
    "transmissionId" TEXT NOT NULL,
    "step" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "tokensIn" INTEGER,
    "tokensOut" INTEGER,
    "latencyMs" INTEGER,
    "outcome" TEXT NOT NULL DEFAULT 'ok',
    "reason" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DeliveryAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Response" (
    "id" TEXT NOT NULL,
    "transmissionId" TEXT NOT NULL,
    "attemptId" TEXT NOT NULL,
    "assistantText" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Response_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ResponseMeta" (
    "responseId" TEXT NOT NULL,
    "modeLabel" TEXT NOT NULL,
    "domainHints" JSONB NOT NULL,
    "usedCfbIds" JSONB NOT NULL,
    "ignoredCfbIds" JSONB NOT NULL,
    "assumptions" JSONB NOT NULL,
    "unknowns" JSONB NOT NULL,
    "missingCfbQueries" JSONB NOT NULL,
    "cfbSuggestions" JSONB NOT NULL,
    "claimMap" JSONB,
    "claimCheck" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ResponseMeta_pkey" PRIMARY KEY ("responseId")
);

-- CreateTable
CREATE TABLE "Cfb" (
    "id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "confidence" DOUBLE PRECISION NOT NULL,
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
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "lastAccessedAt" TIMESTAMPTZ(3),
    "mergedIntoId" TEXT,
    "retiredAt" TIMESTAMPTZ(3),
    "seq" INTEGER NOT NULL DEFAULT 0,
    "privateToId" TEXT,

    CONSTRAINT "Cfb_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CfbChange" (
    "seq" SERIAL NOT NULL,
    "cfbId" TEXT NOT NULL,
    "token" TEXT NOT NULL,

    CONSTRAINT "CfbChange_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "CfbEmbedding" (
    "cfbId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "dims" INTEGER NOT NULL,
    "vector" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CfbEmbedding_pkey" PRIMARY KEY ("cfbId","model")
);

-- CreateTable
CREATE TABLE "CfbRevision" (
    "id" TEXT NOT NULL,
    "cfbId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "snapshot" JSONB NOT NULL,
    "changeKind" TEXT NOT NULL,
    "promotionEventId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CfbRevision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CfbStats" (
    "cfbId" TEXT NOT NULL,
    "usage30d" INTEGER NOT NULL DEFAULT 0,
    "usedByModel30d" INTEGER NOT NULL DEFAULT 0,
    "ignoredByModel30d" INTEGER NOT NULL DEFAULT 0,
    "positiveFeedback30d" INTEGER NOT NULL DEFAULT 0,
    "negativeFeedback30d" INTEGER NOT NULL DEFAULT 0,
    "correctionEvents30d" INTEGER NOT NULL DEFAULT 0,
    "unknownRateWhenInjected" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "lastFeedbackAt" TIMESTAMPTZ(3),
    "hotness" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CfbStats_pkey" PRIMARY KEY ("cfbId")
);

-- CreateTable
CREATE TABLE "CfbUsageEvent" (
    "id" TEXT NOT NULL,
    "cfbId" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "routerDomain" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CfbUsageEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HumanFeedback" (
    "id" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "cfbId" TEXT,
    "polarity" TEXT NOT NULL,
    "tag" TEXT,
    "comment" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HumanFeedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CoverageGap" (
    "id" TEXT NOT NULL,
    "routerDomain" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CoverageGap_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UmbraProposal" (
    "id" TEXT NOT NULL,
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
    "confidence" DOUBLE PRECISION NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "twinOfId" TEXT,
    "domain" TEXT NOT NULL DEFAULT '',
    "latestDecision" TEXT,
    "seq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" TIMESTAMPTZ(3),

    CONSTRAINT "UmbraProposal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProposalCount" (
    "ownerKey" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "ProposalCount_pkey" PRIMARY KEY ("ownerKey","kind")
);

-- CreateTable
CREATE TABLE "UmbraResolveDecision" (
    "id" TEXT NOT NULL,
    "proposalId" TEXT NOT NULL,
    "stage" TEXT NOT NULL DEFAULT 'created',
    "fingerprint" TEXT NOT NULL DEFAULT '',
    "decision" TEXT NOT NULL,
    "targetCfbId" TEXT,
    "mergeCfbIds" JSONB,
    "scores" JSONB NOT NULL,
    "reasonCodes" JSONB NOT NULL,
    "hysteresis" BOOLEAN NOT NULL DEFAULT false,
    "modelOp" TEXT,
    "modelTargetCfbId" TEXT,
    "disagreement" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UmbraResolveDecision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RepetitionCounter" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "routerDomain" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "firstSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "triggeredAt" TIMESTAMPTZ(3),
    "dismissedAt" TIMESTAMPTZ(3),

    CONSTRAINT "RepetitionCounter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PromotionEvent" (
    "id" TEXT NOT NULL,
    "proposalId" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "packetId" TEXT NOT NULL,
    "transmissionId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "finalCfbId" TEXT,
    "editor" TEXT NOT NULL,
    "decidedById" TEXT,
    "overrides" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "round" INTEGER NOT NULL DEFAULT 0,
    "reopenedAt" TIMESTAMPTZ(3),
    "reopenedById" TEXT,

    CONSTRAINT "PromotionEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TraceRun" (
    "id" TEXT NOT NULL,
    "threadId" TEXT,
    "packetId" TEXT,
    "transmissionId" TEXT,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMPTZ(3),

    CONSTRAINT "TraceRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TraceEvent" (
    "id" TEXT NOT NULL,
    "traceRunId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "transmissionId" TEXT,
    "actor" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "metadata" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TraceEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GateEvaluation" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GateEvaluation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkflowRun" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "definition" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "state" JSONB NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "startedById" TEXT,
    "startedVia" TEXT NOT NULL,
    "error" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "WorkflowRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkflowArtifact" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkflowArtifact_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkflowSchedule" (
    "workflow" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "cadence" TEXT NOT NULL,
    "timeOfDay" TEXT NOT NULL,
    "weekday" INTEGER,
    "nextRunAt" TIMESTAMPTZ(3),
    "runAsId" TEXT,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkflowSchedule_pkey" PRIMARY KEY ("workflow")
);

-- CreateTable
CREATE TABLE "WorkflowScheduleRun" (
    "id" TEXT NOT NULL,
    "workflow" TEXT NOT NULL,
    "dueAt" TIMESTAMPTZ(3) NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "outcome" TEXT NOT NULL,
    "runId" TEXT,
    "detail" TEXT,

    CONSTRAINT "WorkflowScheduleRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Session_token_key" ON "Session"("token");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Account_userId_idx" ON "Account"("userId");

-- CreateIndex
CREATE INDEX "Verification_identifier_idx" ON "Verification"("identifier");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

-- CreateIndex
CREATE INDEX "AuditEvent_createdAt_idx" ON "AuditEvent"("createdAt");

-- CreateIndex
CREATE INDEX "AuditEvent_targetType_targetId_idx" ON "AuditEvent"("targetType", "targetId");

-- CreateIndex
CREATE INDEX "Thread_updatedAt_idx" ON "Thread"("updatedAt");

-- CreateIndex
CREATE INDEX "Thread_ownerId_updatedAt_idx" ON "Thread"("ownerId", "updatedAt");

-- CreateIndex
CREATE INDEX "Message_threadId_createdAt_idx" ON "Message"("threadId", "createdAt");

-- CreateIndex
CREATE INDEX "Packet_threadId_createdAt_idx" ON "Packet"("threadId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Packet_callerId_requestId_key" ON "Packet"("callerId", "requestId");

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
CREATE INDEX "Cfb_mergedIntoId_idx" ON "Cfb"("mergedIntoId");

-- CreateIndex
CREATE INDEX "Cfb_createdAt_seq_idx" ON "Cfb"("createdAt", "seq");

-- CreateIndex
CREATE INDEX "Cfb_privateToId_idx" ON "Cfb"("privateToId");

-- CreateIndex
CREATE INDEX "CfbEmbedding_model_version_idx" ON "CfbEmbedding"("model", "version");

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
CREATE INDEX "UmbraProposal_createdAt_idx" ON "UmbraProposal"("createdAt");

-- CreateIndex
CREATE INDEX "UmbraProposal_confidence_createdAt_idx" ON "UmbraProposal"("confidence", "createdAt");

-- CreateIndex
CREATE INDEX "UmbraProposal_status_latestDecision_createdAt_idx" ON "UmbraProposal"("status", "latestDecision", "createdAt");

-- CreateIndex
CREATE INDEX "UmbraProposal_status_domain_createdAt_idx" ON "UmbraProposal"("status", "domain", "createdAt");

-- CreateIndex
CREATE INDEX "UmbraProposal_status_confidence_createdAt_idx" ON "UmbraProposal"("status", "confidence", "createdAt");

-- CreateIndex
CREATE INDEX "UmbraProposal_fingerprint_idx" ON "UmbraProposal"("fingerprint");

-- CreateIndex
CREATE INDEX "UmbraProposal_threadId_status_createdAt_idx" ON "UmbraProposal"("threadId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "UmbraProposal_targetCfbId_createdAt_idx" ON "UmbraProposal"("targetCfbId", "createdAt");

-- CreateIndex
CREATE INDEX "UmbraProposal_twinOfId_idx" ON "UmbraProposal"("twinOfId");

-- CreateIndex
CREATE UNIQUE INDEX "UmbraProposal_responseId_suggestionIndex_key" ON "UmbraProposal"("responseId", "suggestionIndex");

-- CreateIndex
CREATE INDEX "UmbraResolveDecision_proposalId_createdAt_idx" ON "UmbraResolveDecision"("proposalId", "createdAt");

-- CreateIndex
CREATE INDEX "UmbraResolveDecision_fingerprint_createdAt_idx" ON "UmbraResolveDecision"("fingerprint", "createdAt");

-- CreateIndex
CREATE INDEX "RepetitionCounter_triggeredAt_idx" ON "RepetitionCounter"("triggeredAt");

-- CreateIndex
CREATE UNIQUE INDEX "RepetitionCounter_kind_routerDomain_key_key" ON "RepetitionCounter"("kind", "routerDomain", "key");

-- CreateIndex
CREATE INDEX "PromotionEvent_finalCfbId_idx" ON "PromotionEvent"("finalCfbId");

-- CreateIndex
CREATE UNIQUE INDEX "PromotionEvent_proposalId_round_key" ON "PromotionEvent"("proposalId", "round");

-- CreateIndex
CREATE INDEX "TraceRun_threadId_startedAt_idx" ON "TraceRun"("threadId", "startedAt");

-- CreateIndex
CREATE INDEX "TraceRun_transmissionId_idx" ON "TraceRun"("transmissionId");

-- CreateIndex
CREATE INDEX "TraceRun_startedAt_idx" ON "TraceRun"("startedAt");

-- CreateIndex
CREATE INDEX "TraceEvent_transmissionId_idx" ON "TraceEvent"("transmissionId");

-- CreateIndex
CREATE UNIQUE INDEX "TraceEvent_traceRunId_seq_key" ON "TraceEvent"("traceRunId", "seq");

-- CreateIndex
CREATE INDEX "GateEvaluation_createdAt_idx" ON "GateEvaluation"("createdAt");

-- CreateIndex
CREATE INDEX "GateEvaluation_actorId_createdAt_idx" ON "GateEvaluation"("actorId", "createdAt");

-- CreateIndex
CREATE INDEX "GateEvaluation_threadId_createdAt_idx" ON "GateEvaluation"("threadId", "createdAt");

-- CreateIndex
CREATE INDEX "GateEvaluation_transmissionId_idx" ON "GateEvaluation"("transmissionId");

-- CreateIndex
CREATE INDEX "WorkflowRun_status_createdAt_idx" ON "WorkflowRun"("status", "createdAt");

-- CreateIndex
CREATE INDEX "WorkflowRun_createdAt_idx" ON "WorkflowRun"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowArtifact_runId_path_key" ON "WorkflowArtifact"("runId", "path");

-- CreateIndex
CREATE INDEX "WorkflowScheduleRun_workflow_startedAt_idx" ON "WorkflowScheduleRun"("workflow", "startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowScheduleRun_workflow_dueAt_key" ON "WorkflowScheduleRun"("workflow", "dueAt");

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Account" ADD CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Thread" ADD CONSTRAINT "Thread_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ThreadMemento" ADD CONSTRAINT "ThreadMemento_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationContext" ADD CONSTRAINT "ConversationContext_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Packet" ADD CONSTRAINT "Packet_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Transmission" ADD CONSTRAINT "Transmission_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DeliveryAttempt" ADD CONSTRAINT "DeliveryAttempt_transmissionId_fkey" FOREIGN KEY ("transmissionId") REFERENCES "Transmission"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Response" ADD CONSTRAINT "Response_transmissionId_fkey" FOREIGN KEY ("transmissionId") REFERENCES "Transmission"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Response" ADD CONSTRAINT "Response_attemptId_fkey" FOREIGN KEY ("attemptId") REFERENCES "DeliveryAttempt"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResponseMeta" ADD CONSTRAINT "ResponseMeta_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CfbRevision" ADD CONSTRAINT "CfbRevision_cfbId_fkey" FOREIGN KEY ("cfbId") REFERENCES "Cfb"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CfbStats" ADD CONSTRAINT "CfbStats_cfbId_fkey" FOREIGN KEY ("cfbId") REFERENCES "Cfb"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CfbUsageEvent" ADD CONSTRAINT "CfbUsageEvent_cfbId_fkey" FOREIGN KEY ("cfbId") REFERENCES "Cfb"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CfbUsageEvent" ADD CONSTRAINT "CfbUsageEvent_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HumanFeedback" ADD CONSTRAINT "HumanFeedback_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HumanFeedback" ADD CONSTRAINT "HumanFeedback_cfbId_fkey" FOREIGN KEY ("cfbId") REFERENCES "Cfb"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UmbraProposal" ADD CONSTRAINT "UmbraProposal_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UmbraProposal" ADD CONSTRAINT "UmbraProposal_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UmbraResolveDecision" ADD CONSTRAINT "UmbraResolveDecision_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "UmbraProposal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PromotionEvent" ADD CONSTRAINT "PromotionEvent_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "UmbraProposal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TraceRun" ADD CONSTRAINT "TraceRun_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TraceEvent" ADD CONSTRAINT "TraceEvent_traceRunId_fkey" FOREIGN KEY ("traceRunId") REFERENCES "TraceRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkflowArtifact" ADD CONSTRAINT "WorkflowArtifact_runId_fkey" FOREIGN KEY ("runId") REFERENCES "WorkflowRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkflowScheduleRun" ADD CONSTRAINT "WorkflowScheduleRun_workflow_fkey" FOREIGN KEY ("workflow") REFERENCES "WorkflowSchedule"("workflow") ON DELETE CASCADE ON UPDATE CASCADE;
