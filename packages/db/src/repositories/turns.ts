import { randomUUID } from "node:crypto";
import { DomainError } from "@solserver/contracts";
import type { DbClient } from "../client";
import { Prisma } from "../generated/prisma/client";
import { allocateIds, idNumber } from "../ids";
import { type TProposalRow, toProposalPreview } from "../mappers";
import { isUniqueViolation, jsonOf, type TSql, type TSqlDriver } from "../sql";
import { countTurnUsage } from "./cfb-stats";
import { writeContext } from "./contexts";
import { insertGateEvaluations } from "./gate";
import { writeTurnMemento } from "./mementos";
import { addProposalCounts } from "./proposal-counts";
import { countRepetitions } from "./repetitions";
import { insertResolveDecisions } from "./resolve";
import type { TStore } from "./store";
import { insertTraceRun } from "./traces";
import type {
  THistoryMessage,
  TNewProposal,
  TPreviousResponse,
  TResponseSource,
  TStoredTurn,
  TTurnWrite,
} from "./types";

/**
 * A turn this caller stored earlier under this idempotency key, or null. The lookup runs on every
 * turn (hot path); the proposals are read only for a replay.
 */
async function findTurnByRequestId(sql: TSql, callerId: string, requestId: string): Promise<TStoredTurn | null> {
  const [row] = await sql.query<{
    threadId: string;
    packetId: string;
    requestHash: string;
    transmissionId: string;
    responseId: string;
    attemptId: string;
    assistantText: string;
  }>(Prisma.sql`SELECT p."threadId" AS "threadId", p."id" AS "packetId", p."requestHash" AS "requestHash",
      t."id" AS "transmissionId", r."id" AS "responseId", r."attemptId" AS "attemptId", r."assistantText" AS "assistantText"
    FROM "Packet" p
    JOIN "Transmission" t ON t."packetId" = p."id"
    JOIN "Response" r ON r."transmissionId" = t."id"
    WHERE p."callerId" = ${callerId} AND p."requestId" = ${requestId}
    ORDER BY t."createdAt" ASC LIMIT 1`);
  if (!row) return null;
  const proposals = await sql.query<TProposalRow>(
    Prisma.sql`SELECT * FROM "UmbraProposal" WHERE "responseId" = ${row.responseId} ORDER BY "suggestionIndex" ASC`,
  );
  return { ...row, proposals: proposals.map(toProposalPreview) };
}

/** The thread a response belongs to, with its owner; null when the response does not exist. */
async function responseThread(
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

/**
 * What a response answered: the user's message, the answer's text and its thread (the proposal
 * page shows where a proposal came from). Null when the response does not exist.
 */
async function responseSource(db: DbClient, responseId: string): Promise<TResponseSource | null> {
  const row = await db.response.findUnique({
    where: { id: responseId },
    select: {
      assistantText: true,
      createdAt: true,
      transmission: {
        select: { packet: { select: { message: true, thread: { select: { id: true, title: true } } } } },
      },
    },
  });
  if (!row) return null;
  const { packet } = row.transmission;
  return {
    thread_id: packet.thread.id,
    thread_title: packet.thread.title,
    response_id: responseId,
    user_message: packet.message,
    assistant_text: row.assistantText,
    created_ts: row.createdAt.toISOString(),
  };
}

/** Whether a thread exists, and whose it is (hot path). */
async function threadOwner(sql: TSql, threadId: string): Promise<{ ownerId: string | null } | null> {
  const [row] = await sql.query<{ ownerId: string | null }>(
    Prisma.sql`SELECT "ownerId" FROM "Thread" WHERE "id" = ${threadId}`,
  );
  return row ?? null;
}

/** The thread's last `limit` messages, oldest first (hot path). */
async function getThreadHistory(sql: TSql, threadId: string, limit: number): Promise<THistoryMessage[]> {
  const rows = await sql.query<{ id: string; role: string; content: string }>(
    Prisma.sql`SELECT "id", "role", "content" FROM "Message" WHERE "threadId" = ${threadId}
      ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}`,
  );
  return rows
    .reverse()
    .map((r) => ({ id: r.id, role: r.role === "assistant" ? "assistant" : "user", content: r.content }));
}

/** How many of a thread's latest turns the gate's baseline is looked for in. */
const BASELINE_LOOKBACK = 20;
/** The breakpoint step's trace line of a `skip` turn (services/turn/plan.ts writes it). */
const SKIP_SUMMARY = "Breakpoint decision: SKIP";

/**
 * The thread's latest delivered response with the attempt that produced it and its meta: the
 * output gate's baseline for the next turn (hot path). Null for a thread without one. Answers to
 * acknowledgements (`skip` turns: "ok thanks" → "You're welcome.") are passed over, so the gate
 * compares an answer with an answer, not with a pleasantry (issue 23: every answer after an
 * acknowledgement warned of drift). The latest packets are found through the (threadId,
 * createdAt) index, at most BASELINE_LOOKBACK of them, so the cost does not grow with the thread
 * (every stored packet has its response: a turn is written in one transaction). A turn whose
 * trace retention pruned counts as an answer.
 */
async function lastResponse(sql: TSql, threadId: string): Promise<TPreviousResponse | null> {
  const [row] = await sql.query<{
    responseId: string;
    message: string;
    assistantText: string;
    model: string;
    tokensIn: number | null;
    tokensOut: number | null;
    latencyMs: number | null;
    modeLabel: string | null;
    domainHints: unknown;
    usedCfbIds: unknown;
    ignoredCfbIds: unknown;
    assumptions: unknown;
    unknowns: unknown;
    missingCfbQueries: unknown;
    cfbSuggestions: unknown;
    claimMap: unknown;
  }>(Prisma.sql`SELECT r."id" AS "responseId", p."message" AS "message", r."assistantText" AS "assistantText", a."model" AS "model",
      a."tokensIn" AS "tokensIn", a."tokensOut" AS "tokensOut", a."latencyMs" AS "latencyMs",
      m."modeLabel" AS "modeLabel", m."domainHints" AS "domainHints", m."usedCfbIds" AS "usedCfbIds",
      m."ignoredCfbIds" AS "ignoredCfbIds", m."assumptions" AS "assumptions", m."unknowns" AS "unknowns",
      m."missingCfbQueries" AS "missingCfbQueries", m."cfbSuggestions" AS "cfbSuggestions", m."claimMap" AS "claimMap"
    FROM (SELECT q."id", q."message" FROM (SELECT "id", "createdAt", "message" FROM "Packet" WHERE "threadId" = ${threadId}
        ORDER BY "createdAt" DESC, "id" DESC LIMIT ${BASELINE_LOOKBACK}) q
      WHERE NOT EXISTS (SELECT 1 FROM "Transmission" t2 JOIN "TraceEvent" e ON e."transmissionId" = t2."id"
        WHERE t2."packetId" = q."id" AND e."phase" = 'breakpoint' AND e."summary" = ${SKIP_SUMMARY})
      ORDER BY q."createdAt" DESC, q."id" DESC LIMIT 1) p
    JOIN "Transmission" t ON t."packetId" = p."id"
    JOIN "Response" r ON r."transmissionId" = t."id"
    JOIN "DeliveryAttempt" a ON a."id" = r."attemptId"
    LEFT JOIN "ResponseMeta" m ON m."responseId" = r."id"
    ORDER BY r."createdAt" DESC, r."id" DESC LIMIT 1`);
  if (!row) return null;
  const { responseId, message, assistantText, model, tokensIn, tokensOut, latencyMs } = row;
  // The envelope as the model sent it (meta keys as in OutputEnvelope), for a like-for-like size.
  const meta =
    row.modeLabel === null
      ? null
      : {
          modeLabel: row.modeLabel,
          domainHints: jsonOf(row.domainHints),
          used_cfb_ids: jsonOf(row.usedCfbIds),
          ignored_cfb_ids: jsonOf(row.ignoredCfbIds),
          assumptions: jsonOf(row.assumptions),
          unknowns: jsonOf(row.unknowns),
          missing_cfb_queries: jsonOf(row.missingCfbQueries),
          cfb_suggestions: jsonOf(row.cfbSuggestions),
          ...(row.claimMap === null ? {} : { claim_map: jsonOf(row.claimMap) }),
        };
  return { responseId, message, assistantText, meta, model, tokensIn, tokensOut, latencyMs };
}

/**
 * Where the thread's recent turns were routed (the selector step's input): the latest turn's
 * router_domain and the domainHints of the last `limit` answers, newest first (hot path).
 */
async function routingHistory(
  sql: TSql,
  threadId: string,
  limit: number,
): Promise<{ previousDomain: string | null; hintHistory: string[][] }> {
  const rows = await sql.query<{ routerDomain: string; domainHints: unknown }>(
    Prisma.sql`SELECT t."routerDomain" AS "routerDomain", m."domainHints" AS "domainHints"
      FROM (SELECT "id", "createdAt" FROM "Packet" WHERE "threadId" = ${threadId} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit}) p
      JOIN "Transmission" t ON t."packetId" = p."id"
      JOIN "Response" r ON r."transmissionId" = t."id"
      LEFT JOIN "ResponseMeta" m ON m."responseId" = r."id"
      ORDER BY p."createdAt" DESC, p."id" DESC`,
  );
  const hints = (value: unknown) => {
    const parsed = value === null || value === undefined ? [] : jsonOf(value);
    return Array.isArray(parsed) ? parsed.filter((h): h is string => typeof h === "string") : [];
  };
  return { previousDomain: rows[0]?.routerDomain ?? null, hintHistory: rows.map((r) => hints(r.domainHints)) };
}

/** The attempts to store: every try at the model (n = 1..N), or one "ok" attempt when none was recorded. */
function attemptsOf(turn: TTurnWrite): TTurnWrite["attempts"] {
  if (turn.attempts.length > 0) return turn.attempts;
  const { model, tokensIn, tokensOut, latencyMs } = turn;
  return [{ n: 1, model, tokensIn, tokensOut, latencyMs, outcome: "ok", reason: null }];
}

/**
 * A turn's proposals, grouped under the twins found before the transaction (a lead decided since
 * leads nothing), counted in the queue counts, with resolve's decision on each.
 */
async function insertTurnProposals(
  tx: TSql,
  turn: TTurnWrite,
  { ids, responseId, now }: { ids: readonly string[]; responseId: string; now: Date },
): Promise<void> {
  const json = (value: unknown) => tx.dialect.json(value);
  if (turn.proposals.length > 0) {
    const twinOfId = (p: TNewProposal) =>
      !p.twinOf ? null : "proposalId" in p.twinOf ? p.twinOf.proposalId : (ids[p.twinOf.index] ?? null);
    const rows = turn.proposals.map(
      (p, i) =>
        Prisma.sql`(${ids[i]}, ${responseId}, ${turn.threadId}, ${p.suggestionIndex}, ${p.op}, ${p.targetCfbId},
        ${json(p.warnings)}, ${p.title}, ${p.deltaSummary}, ${json(p.proposedCfb)}, ${p.rationale}, ${p.confidence},
        ${p.fingerprint}, 'pending', ${p.proposedCfb.domain}, ${p.resolve?.outcome.decision ?? null},
        ${idNumber(ids[i] as string)}, ${twinOfId(p)}, ${Boolean(p.twinOf && "echo" in p.twinOf && p.twinOf.echo)}, ${now})`,
    );
    await tx.execute(Prisma.sql`INSERT INTO "UmbraProposal" ("id", "responseId", "threadId", "suggestionIndex", "op",
      "targetCfbId", "warnings", "title", "deltaSummary", "proposedCfb", "rationale", "confidence", "fingerprint",
      "status", "domain", "latestDecision", "seq", "twinOfId", "echo", "createdAt")
    VALUES ${Prisma.join(rows)}`);
    // Twins were found before this transaction: a lead decided since (its group folded) leads
    // nothing any more, so a proposal grouped under it stands on its own instead of hiding.
    // A lead is pending and grouped under nobody, or (for a twin of the same owner) an echo.
    const leads = turn.proposals.flatMap((p) => (p.twinOf && "proposalId" in p.twinOf ? [p.twinOf.proposalId] : []));
    if (leads.length > 0) {
      // Writing the leads' rows makes this link and a decision of the group conflict on
      // PostgreSQL: a decision (serializable) that read the group before this turn commits
      // fails its write and reads the group again, new proposal included; one that wrote
      // first makes this statement wait, and the check below then sees the lead decided.
      await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "twinOfId" = "twinOfId"
      WHERE "id" IN (${Prisma.join([...new Set(leads)])})`);
    }
    if (turn.proposals.some((p) => p.twinOf)) {
      await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "twinOfId" = NULL, "echo" = ${false}
      WHERE "responseId" = ${responseId} AND "twinOfId" IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM "UmbraProposal" l
        WHERE l."id" = "UmbraProposal"."twinOfId" AND l."status" = 'pending'
          AND (l."twinOfId" IS NULL OR (l."echo" AND NOT "UmbraProposal"."echo")))`);
    }
    // Counted as they now stand (a lead, or a twin), in the queue counts of the thread's owner.
    await addProposalCounts(tx, Prisma.sql`p."responseId" = ${responseId}`, 1);
  }
  // Resolve's decision on each new proposal (seed 001 §6), taken before this transaction.
  await insertResolveDecisions(
    tx,
    turn.proposals.flatMap((p, i) =>
      p.resolve
        ? [
            {
              ...p.resolve,
              proposalId: ids[i] as string,
              stage: "created" as const,
              fingerprint: p.fingerprint,
            },
          ]
        : [],
    ),
    now,
  );
}

/** Which CFBs the turn injected, used and ignored: counted, and one usage event each. */
async function recordUsage(tx: TSql, turn: TTurnWrite, responseId: string, now: Date): Promise<void> {
  const usage = [
    ...(turn.usage.injected ?? []).map((cfbId) => ({ cfbId, kind: "injected" })),
    ...turn.usage.used.map((cfbId) => ({ cfbId, kind: "used" })),
    ...turn.usage.ignored.map((cfbId) => ({ cfbId, kind: "ignored" })),
  ];
  await countTurnUsage(
    tx,
    {
      injected: turn.usage.injected ?? [],
      used: turn.usage.used,
      ignored: turn.usage.ignored,
      hadUnknown: turn.usage.hadUnknown ?? false,
    },
    now,
  );
  if (usage.length > 0) {
    const rows = usage.map(
      (u) => Prisma.sql`(${randomUUID()}, ${u.cfbId}, ${responseId}, ${turn.routerDomain}, ${u.kind}, ${now})`,
    );
    await tx.execute(Prisma.sql`INSERT INTO "CfbUsageEvent" ("id", "cfbId", "responseId", "routerDomain", "kind", "createdAt")
    VALUES ${Prisma.join(rows)}`);
  }
}

/**
 * Writes a whole turn in one transaction: thread, both messages, packet -> transmission ->
 * attempts -> response, the validated meta, the proposals, usage events, the memento (conditional
 * on the version the turn read) and the trace. Every table gets one statement (multi-row inserts),
 * sent through the hot-path driver. Returns "duplicate" when another request with the same
 * request_id won the race.
 */
async function recordTurn(driver: TSqlDriver, turn: TTurnWrite): Promise<TStoredTurn | "duplicate"> {
  try {
    return await driver.transaction(
      async (tx) => {
        const attempts = attemptsOf(turn);
        // The selector step (seed 001 §7.1) is an attempt of its own, before the main ones.
        const selectorRows = turn.selector ? 1 : 0;
        const ids = await allocateIds(tx, {
          packet: 1,
          transmission: 1,
          response: 1,
          attempt: selectorRows + attempts.length,
          proposal: turn.proposals.length,
        });
        const [packetId, transmissionId, responseId] = [ids.packet[0], ids.transmission[0], ids.response[0]] as [
          string,
          string,
          string,
        ];
        const attemptId = ids.attempt.at(-1) as string;
        const now = new Date();

        // Creates the thread or touches it, and returns its owner in the same statement. The owner
        // is checked here, in the write transaction: the thread may have been created by someone
        // else since the service looked (a concurrent first turn with the same thread_id).
        const [thread] = await tx.query<{ ownerId: string | null }>(
          Prisma.sql`INSERT INTO "Thread" ("id", "title", "ownerId", "createdAt", "updatedAt")
          VALUES (${turn.threadId}, ${turn.threadTitle}, ${turn.ownerId}, ${now}, ${now})
          ON CONFLICT ("id") DO UPDATE SET "updatedAt" = excluded."updatedAt" RETURNING "ownerId"`,
        );
        if (!turn.mayWriteAnyThread && thread?.ownerId !== turn.ownerId) {
          throw new DomainError("FORBIDDEN", `you may not access thread ${turn.threadId}`);
        }
        await tx.execute(Prisma.sql`INSERT INTO "Packet"
        ("id", "threadId", "callerId", "requestId", "requestHash", "message", "messageWindowIds", "createdAt")
        VALUES (${packetId}, ${turn.threadId}, ${turn.callerId}, ${turn.requestId}, ${turn.requestHash}, ${turn.message},
          ${tx.dialect.json([...turn.historyMessageIds, turn.userMessageId])}, ${now})`);
        await tx.execute(Prisma.sql`INSERT INTO "Transmission" ("id", "packetId", "status", "modeLabel", "routerDomain", "createdAt")
        VALUES (${transmissionId}, ${packetId}, 'done', ${turn.modeLabel}, ${turn.routerDomain}, ${now})`);
        const attemptRows = attempts.map(
          (a, i) =>
            Prisma.sql`(${ids.attempt[selectorRows + i]}, ${transmissionId}, 'main', ${a.n}, ${a.model}, ${a.tokensIn}, ${a.tokensOut}, ${a.latencyMs}, ${a.outcome}, ${a.reason}, ${now})`,
        );
        if (turn.selector) {
          const sel = turn.selector;
          attemptRows.unshift(
            Prisma.sql`(${ids.attempt[0]}, ${transmissionId}, 'selector', 1, ${sel.model}, NULL, NULL, ${sel.latencyMs}, ${sel.outcome}, ${sel.reason}, ${now})`,
          );
        }
        await tx.execute(Prisma.sql`INSERT INTO "DeliveryAttempt"
        ("id", "transmissionId", "step", "n", "model", "tokensIn", "tokensOut", "latencyMs", "outcome", "reason", "createdAt")
        VALUES ${Prisma.join(attemptRows)}`);
        await tx.execute(Prisma.sql`INSERT INTO "Response" ("id", "transmissionId", "attemptId", "assistantText", "createdAt")
        VALUES (${responseId}, ${transmissionId}, ${attemptId}, ${turn.assistantText}, ${now})`);
        const meta = turn.meta;
        const json = (value: unknown) => tx.dialect.json(value);
        await tx.execute(Prisma.sql`INSERT INTO "ResponseMeta" ("responseId", "modeLabel", "domainHints", "usedCfbIds",
          "ignoredCfbIds", "assumptions", "unknowns", "missingCfbQueries", "cfbSuggestions", "claimMap", "claimCheck", "createdAt")
        VALUES (${responseId}, ${meta.modeLabel}, ${json(meta.domainHints)}, ${json(meta.used_cfb_ids)},
          ${json(meta.ignored_cfb_ids)}, ${json(meta.assumptions)}, ${json(meta.unknowns)}, ${json(meta.missing_cfb_queries)},
          ${json(meta.cfb_suggestions)}, ${meta.claim_map ? json(meta.claim_map) : null},
          ${turn.claimCheck ? json(turn.claimCheck) : null}, ${now})`);
        // Both messages in one statement, the answer a millisecond after the question so that
        // history (ordered by time) never shows them the other way round.
        const answeredAt = new Date(now.getTime() + 1);
        await tx.execute(Prisma.sql`INSERT INTO "Message" ("id", "threadId", "role", "content", "packetId", "createdAt")
        VALUES (${turn.userMessageId}, ${turn.threadId}, 'user', ${turn.message}, ${packetId}, ${now}),
          (${randomUUID()}, ${turn.threadId}, 'assistant', ${turn.assistantText}, ${packetId}, ${answeredAt})`);
        await insertTurnProposals(tx, turn, { ids: ids.proposal, responseId, now });
        if (turn.repetitions) await countRepetitions(tx, turn.repetitions.hits, turn.repetitions.thresholds, now);
        await recordUsage(tx, turn, responseId, now);
        await insertGateEvaluations(
          tx,
          turn.gate.map((g) => ({ ...g, source: "turn", transmissionId })),
          now,
        );
        const mementoVersion = turn.memento ? await writeTurnMemento(tx, turn.threadId, turn.memento, now) : null;
        const procedureVersion = turn.procedure ? await writeContext(tx, turn.threadId, turn.procedure, now) : null;
        await insertTraceRun(tx, {
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
          proposals: turn.proposals
            .map((p, i) => ({
              proposal_id: ids.proposal[i] as string,
              op: p.op,
              target_cfb_id: p.targetCfbId,
              title: p.title,
              delta_summary: p.deltaSummary,
              confidence: p.confidence,
              warnings: p.warnings,
              suggestionIndex: p.suggestionIndex,
            }))
            .sort((x, y) => x.suggestionIndex - y.suggestionIndex)
            .map(({ suggestionIndex: _, ...preview }) => preview),
          mementoVersion,
          procedureVersion,
        };
        // Read committed: a turn is inserts, increments, conditional writes and stats rows read
        // FOR UPDATE; concurrent turns wait for each other's counter rows instead of conflicting.
      },
      { isolation: "read committed" },
    );
  } catch (error) {
    // The (callerId, requestId) key of Packet: a concurrent retry of this request stored first.
    if (isUniqueViolation(error, driver, "Packet", "requestId")) return "duplicate";
    throw error;
  }
}

export function turnRepository({ prisma, sql }: TStore) {
  return {
    findByRequestId: (callerId: string, requestId: string) => findTurnByRequestId(sql, callerId, requestId),
    history: (threadId: string, limit: number) => getThreadHistory(sql, threadId, limit),
    responseThread: (responseId: string) => responseThread(prisma, responseId),
    responseSource: (responseId: string) => responseSource(prisma, responseId),
    threadOwner: (threadId: string) => threadOwner(sql, threadId),
    record: (turn: TTurnWrite) => recordTurn(sql, turn),
    lastResponse: (threadId: string) => lastResponse(sql, threadId),
    /** The thread's previous router_domain and its recent answers' domainHints (the selector's input). */
    routingHistory: (threadId: string, limit: number) => routingHistory(sql, threadId, limit),
  };
}
