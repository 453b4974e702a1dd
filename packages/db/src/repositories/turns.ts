import { randomUUID } from "node:crypto";
import { DomainError } from "@solserver/contracts";
import type { DbClient } from "../client";
import { Prisma } from "../generated/prisma/client";
import { allocateIds } from "../ids";
import { toProposalPreview } from "../mappers";
import { writeMemento } from "./mementos";
import { writeTraceRun } from "./traces";
import type { THistoryMessage, TStoredTurn, TTurnWrite } from "./types";

/** A turn this caller stored earlier under this idempotency key, or null. */
export async function findTurnByRequestId(
  db: DbClient,
  callerId: string,
  requestId: string,
): Promise<TStoredTurn | null> {
  const packet = await db.packet.findUnique({
    where: { callerId_requestId: { callerId, requestId } },
    include: {
      transmissions: {
        orderBy: { createdAt: "asc" },
        take: 1,
        include: { responses: { take: 1, include: { proposals: { orderBy: { suggestionIndex: "asc" } } } } },
      },
    },
  });
  const transmission = packet?.transmissions[0];
  const response = transmission?.responses[0];
  if (!packet || !transmission || !response) return null;
  return {
    threadId: packet.threadId,
    packetId: packet.id,
    transmissionId: transmission.id,
    attemptId: response.attemptId,
    responseId: response.id,
    assistantText: response.assistantText,
    requestHash: packet.requestHash,
    proposals: response.proposals.map(toProposalPreview),
  };
}

/** The thread a response belongs to, with its owner; null when the response does not exist. */
export async function responseThread(
  db: DbClient,
  responseId: string,
): Promise<{ threadId: string; ownerId: string | null } | null> {
  const row = await db.response.findUnique({
    where: { id: responseId },
    select: { transmission: { select: { packet: { select: { thread: { select: { id: true, ownerId: true } } } } } } },
  });
  const thread = row?.transmission.packet.thread;
  return thread ? { threadId: thread.id, ownerId: thread.ownerId } : null;
}

/** Whether a thread exists, and whose it is. */
export async function threadOwner(db: DbClient, threadId: string): Promise<{ ownerId: string | null } | null> {
  return db.thread.findUnique({ where: { id: threadId }, select: { ownerId: true } });
}

export async function getThreadHistory(db: DbClient, threadId: string, limit: number): Promise<THistoryMessage[]> {
  const rows = await db.message.findMany({
    where: { threadId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, role: true, content: true },
  });
  return rows
    .reverse()
    .map((r) => ({ id: r.id, role: r.role === "assistant" ? "assistant" : "user", content: r.content }));
}

/**
 * Writes a whole turn in one transaction: thread, both messages, packet -> transmission ->
 * attempt -> response, the validated meta, the proposals, usage events and the trace.
 * Returns "duplicate" when another request with the same request_id won the race.
 */
export async function recordTurn(db: DbClient, turn: TTurnWrite): Promise<TStoredTurn | "duplicate"> {
  try {
    return await db.$transaction(async (tx) => {
      // Every try at the model is a DeliveryAttempt (n = 1..N); the response is the last one's.
      const attempts =
        turn.attempts.length > 0
          ? turn.attempts
          : [
              {
                n: 1,
                model: turn.model,
                tokensIn: turn.tokensIn,
                tokensOut: turn.tokensOut,
                latencyMs: turn.latencyMs,
                outcome: "ok",
                reason: null,
              },
            ];
      const [packetId, transmissionId, responseId] = [
        ...(await allocateIds(tx, "packet")),
        ...(await allocateIds(tx, "transmission")),
        ...(await allocateIds(tx, "response")),
      ] as [string, string, string];
      const attemptIds = await allocateIds(tx, "attempt", attempts.length);
      const attemptId = attemptIds.at(-1) as string;
      const proposalIds = await allocateIds(tx, "proposal", turn.proposals.length);

      await tx.thread.upsert({
        where: { id: turn.threadId },
        create: { id: turn.threadId, title: turn.threadTitle, ownerId: turn.ownerId },
        update: {},
      });
      // Re-checked here, in the write transaction: the thread may have been created by someone
      // else since the service looked (a concurrent first turn with the same thread_id).
      const thread = await tx.thread.findUniqueOrThrow({ where: { id: turn.threadId }, select: { ownerId: true } });
      if (!turn.mayWriteAnyThread && thread.ownerId !== turn.ownerId) {
        throw new DomainError("FORBIDDEN", `you may not access thread ${turn.threadId}`);
      }
      const userMessageId = turn.userMessageId;
      await tx.packet.create({
        data: {
          id: packetId,
          threadId: turn.threadId,
          callerId: turn.callerId,
          requestId: turn.requestId,
          requestHash: turn.requestHash,
          message: turn.message,
          messageWindowIds: [...turn.historyMessageIds, userMessageId],
        },
      });
      await tx.transmission.create({
        data: {
          id: transmissionId,
          packetId,
          status: "done",
          modeLabel: turn.modeLabel,
          routerDomain: turn.routerDomain,
        },
      });
      await tx.deliveryAttempt.createMany({
        data: attempts.map((a, i) => ({
          id: attemptIds[i] as string,
          transmissionId,
          step: "main",
          n: a.n,
          model: a.model,
          tokensIn: a.tokensIn,
          tokensOut: a.tokensOut,
          latencyMs: a.latencyMs,
          outcome: a.outcome,
          reason: a.reason,
        })),
      });
      await tx.response.create({
        data: { id: responseId, transmissionId, attemptId, assistantText: turn.assistantText },
      });
      const meta = turn.meta;
      await tx.responseMeta.create({
        data: {
          responseId,
          modeLabel: meta.modeLabel,
          domainHints: meta.domainHints,
          usedCfbIds: meta.used_cfb_ids,
          ignoredCfbIds: meta.ignored_cfb_ids,
          assumptions: meta.assumptions,
          unknowns: meta.unknowns,
          missingCfbQueries: meta.missing_cfb_queries,
          cfbSuggestions: meta.cfb_suggestions,
          claimMap: meta.claim_map ?? Prisma.DbNull,
        },
      });
      // Both messages in one statement, the answer a millisecond after the question so that
      // history (ordered by time) never shows them the other way round.
      const askedAt = new Date();
      await tx.message.createMany({
        data: [
          {
            id: userMessageId,
            threadId: turn.threadId,
            role: "user",
            content: turn.message,
            packetId,
            createdAt: askedAt,
          },
          {
            id: randomUUID(),
            threadId: turn.threadId,
            role: "assistant",
            content: turn.assistantText,
            packetId,
            createdAt: new Date(askedAt.getTime() + 1),
          },
        ],
      });
      const proposals = await tx.umbraProposal.createManyAndReturn({
        data: turn.proposals.map((p, i) => ({
          id: proposalIds[i] as string,
          responseId,
          threadId: turn.threadId,
          suggestionIndex: p.suggestionIndex,
          op: p.op,
          targetCfbId: p.targetCfbId,
          warnings: p.warnings,
          title: p.title,
          deltaSummary: p.deltaSummary,
          proposedCfb: p.proposedCfb,
          rationale: p.rationale,
          confidence: p.confidence,
          fingerprint: p.fingerprint,
        })),
      });
      proposals.sort((a, b) => a.suggestionIndex - b.suggestionIndex);
      const usage = [
        ...turn.usage.used.map((cfbId) => ({ cfbId, kind: "used" })),
        ...turn.usage.ignored.map((cfbId) => ({ cfbId, kind: "ignored" })),
      ];
      if (usage.length > 0) {
        await tx.cfbUsageEvent.createMany({
          data: usage.map((u) => ({ id: randomUUID(), responseId, routerDomain: turn.routerDomain, ...u })),
        });
      }
      const mementoVersion = turn.memento
        ? await writeMemento(tx, turn.threadId, turn.memento.expectedVersion, turn.memento.payload)
        : null;
      await writeTraceRun(tx, {
        kind: "turn",
        status: "completed",
        threadId: turn.threadId,
        packetId,
        transmissionId,
        events: turn.trace,
      });
      return {
        threadId: turn.threadId,
        packetId,
        transmissionId,
        attemptId,
        responseId,
        assistantText: turn.assistantText,
        requestHash: turn.requestHash,
        proposals: proposals.map(toProposalPreview),
        mementoVersion,
      };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      const target = JSON.stringify(error.meta ?? {});
      if (target.includes("requestId") || target.includes("request_id") || target.includes("callerId")) {
        return "duplicate";
      }
    }
    throw error;
  }
}
