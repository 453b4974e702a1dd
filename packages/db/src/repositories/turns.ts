import { sql as kyselySql } from "kysely";
import type { DbClient } from "../client";
import { toProposalPreview } from "../mappers";
import { prepare } from "../prepared-sql";
import { jsonOf, type TSql } from "../sql";
import { rows, typed } from "../typed-sql";
import type { TStore } from "./store";
import { recordTurn, rehearseTurnWrite } from "./turn-write";
import type { THistoryMessage, TPreviousResponse, TResponseSource, TStoredTurn, TTurnWrite } from "./types";

// The turn repository: the reads of a turn's pipeline (most on the hot path) and its write
// (turn-write.ts). Constants stay SQL literals (`kyselySql.lit`), as the statements always wrote them.
// The hot path's statements are prepared (built and compiled once, typed-sql.ts).

const storedTurn = prepare((v: { callerId: string; requestId: string }) =>
  typed
    .selectFrom("Packet as p")
    .innerJoin("Transmission as t", "t.packetId", "p.id")
    .innerJoin("Response as r", "r.transmissionId", "t.id")
    .select([
      "p.threadId",
      "p.id as packetId",
      "p.requestHash",
      "t.id as transmissionId",
      "r.id as responseId",
      "r.attemptId",
      "r.assistantText",
    ])
    .where("p.callerId", "=", v.callerId)
    .where("p.requestId", "=", v.requestId)
    .orderBy("t.createdAt", "asc")
    .limit(kyselySql.lit(1)),
);

/**
 * A turn this caller stored earlier under this idempotency key, or null. The lookup runs on every
 * turn (hot path); the proposals are read only for a replay.
 */
async function findTurnByRequestId(sql: TSql, callerId: string, requestId: string): Promise<TStoredTurn | null> {
  const [row] = await rows(sql, storedTurn({ callerId, requestId }, sql.dialect));
  if (!row) return null;
  const proposals = await rows(
    sql,
    typed
      .selectFrom("UmbraProposal")
      .selectAll()
      .where("responseId", "=", row.responseId)
      .orderBy("suggestionIndex", "asc"),
  );
  // (TProposalRow's boolean: the column reads 0 / 1 on SQLite)
  return { ...row, proposals: proposals.map((p) => toProposalPreview({ ...p, echo: Boolean(p.echo) })) };
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

const owner = prepare((v: { threadId: string }) =>
  typed.selectFrom("Thread").select("ownerId").where("id", "=", v.threadId),
);

/** Whether a thread exists, and whose it is (hot path). */
async function threadOwner(sql: TSql, threadId: string): Promise<{ ownerId: string | null } | null> {
  const [row] = await rows(sql, owner({ threadId }, sql.dialect));
  return row ?? null;
}

const lastMessages = prepare((v: { threadId: string; limit: number }) =>
  typed
    .selectFrom("Message")
    .select(["id", "role", "content"])
    .where("threadId", "=", v.threadId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(v.limit),
);

/** The thread's last `limit` messages, oldest first (hot path). */
async function getThreadHistory(sql: TSql, threadId: string, limit: number): Promise<THistoryMessage[]> {
  const messages = await rows(sql, lastMessages({ threadId, limit }, sql.dialect));
  return messages
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
  const [row] = await rows(sql, previousResponse({ threadId }, sql.dialect));
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

const previousResponse = prepare((v: { threadId: string }) =>
  typed
    .selectFrom(latestAnsweredPacket(v.threadId))
    .innerJoin("Transmission as t", "t.packetId", "p.id")
    .innerJoin("Response as r", "r.transmissionId", "t.id")
    .innerJoin("DeliveryAttempt as a", "a.id", "r.attemptId")
    .leftJoin("ResponseMeta as m", "m.responseId", "r.id")
    .select([
      "r.id as responseId",
      "p.message",
      "r.assistantText",
      "a.model",
      "a.tokensIn",
      "a.tokensOut",
      "a.latencyMs",
      "m.modeLabel",
      "m.domainHints",
      "m.usedCfbIds",
      "m.ignoredCfbIds",
      "m.assumptions",
      "m.unknowns",
      "m.missingCfbQueries",
      "m.cfbSuggestions",
      "m.claimMap",
    ])
    .orderBy("r.createdAt", "desc")
    .orderBy("r.id", "desc")
    .limit(kyselySql.lit(1)),
);

/** The latest of the thread's last BASELINE_LOOKBACK packets whose turn was not a `skip` (alias `p`). */
function latestAnsweredPacket(threadId: string) {
  const recent = typed
    .selectFrom("Packet")
    .select(["id", "createdAt", "message"])
    .where("threadId", "=", threadId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(BASELINE_LOOKBACK)
    .as("q");
  return typed
    .selectFrom(recent)
    .select(["q.id", "q.message"])
    .where(({ not, exists, selectFrom, lit }) =>
      not(
        exists(
          selectFrom("Transmission as t2")
            .innerJoin("TraceEvent as e", "e.transmissionId", "t2.id")
            .select(lit(1).as("one"))
            .whereRef("t2.packetId", "=", "q.id")
            .where("e.phase", "=", kyselySql.lit("breakpoint"))
            .where("e.summary", "=", SKIP_SUMMARY),
        ),
      ),
    )
    .orderBy("q.createdAt", "desc")
    .orderBy("q.id", "desc")
    .limit(kyselySql.lit(1))
    .as("p");
}

const recentRoutes = prepare((v: { threadId: string; limit: number }) =>
  typed
    .selectFrom(
      typed
        .selectFrom("Packet")
        .select(["id", "createdAt"])
        .where("threadId", "=", v.threadId)
        .orderBy("createdAt", "desc")
        .orderBy("id", "desc")
        .limit(v.limit)
        .as("p"),
    )
    .innerJoin("Transmission as t", "t.packetId", "p.id")
    .innerJoin("Response as r", "r.transmissionId", "t.id")
    .leftJoin("ResponseMeta as m", "m.responseId", "r.id")
    .select(["t.routerDomain", "m.domainHints"])
    .orderBy("p.createdAt", "desc")
    .orderBy("p.id", "desc"),
);

/**
 * Where the thread's recent turns were routed (the selector step's input): the latest turn's
 * router_domain and the domainHints of the last `limit` answers, newest first (hot path).
 */
async function routingHistory(
  sql: TSql,
  threadId: string,
  limit: number,
): Promise<{ previousDomain: string | null; hintHistory: string[][] }> {
  const turns = await rows(sql, recentRoutes({ threadId, limit }, sql.dialect));
  const hints = (value: unknown) => {
    const parsed = value === null || value === undefined ? [] : jsonOf(value);
    return Array.isArray(parsed) ? parsed.filter((h): h is string => typeof h === "string") : [];
  };
  return { previousDomain: turns[0]?.routerDomain ?? null, hintHistory: turns.map((r) => hints(r.domainHints)) };
}

export function turnRepository({ prisma, sql }: TStore) {
  return {
    findByRequestId: (callerId: string, requestId: string) => findTurnByRequestId(sql, callerId, requestId),
    history: (threadId: string, limit: number) => getThreadHistory(sql, threadId, limit),
    responseThread: (responseId: string) => responseThread(prisma, responseId),
    responseSource: (responseId: string) => responseSource(prisma, responseId),
    threadOwner: (threadId: string) => threadOwner(sql, threadId),
    record: (turn: TTurnWrite) => recordTurn(sql, turn),
    /** The turn's write, rolled back (the start-up rehearsal: every statement run once, nothing kept). */
    rehearse: (turn: TTurnWrite) => rehearseTurnWrite(sql, turn),
    lastResponse: (threadId: string) => lastResponse(sql, threadId),
    /** The thread's previous router_domain and its recent answers' domainHints (the selector's input). */
    routingHistory: (threadId: string, limit: number) => routingHistory(sql, threadId, limit),
  };
}
