import { randomUUID } from "node:crypto";
import { type Insertable, sql as kyselySql } from "kysely";
import { prepare } from "../prepared-sql";
import type { TSql } from "../sql";
import { fragment, run, type TDatabase, typed } from "../typed-sql";
import type { TTurnWrite } from "./types";

// A chat turn's exchange, the first rows of its write (turn-write.ts): packet -> transmission ->
// attempts -> response, the answer's meta and both messages, in prepared statements (hot path).

/** The attempts to store: every try at the model (n = 1..N), or one "ok" attempt when none was recorded. */
export function attemptsOf(turn: TTurnWrite): TTurnWrite["attempts"] {
  if (turn.attempts.length > 0) return turn.attempts;
  const { model, tokensIn, tokensOut, latencyMs } = turn;
  return [{ n: 1, model, tokensIn, tokensOut, latencyMs, outcome: "ok", reason: null }];
}

/** The ids a turn's rows take, allocated up front. */
export type TTurnIds = {
  packetId: string;
  transmissionId: string;
  responseId: string;
  /** The selector step's attempt first (when there is one), then the main attempts in order. */
  attemptIds: readonly string[];
};

/** The turn's attempts as rows: the selector step's (seed 001 §7.1), then every try at the model. */
function attemptRows(turn: TTurnWrite, { transmissionId, attemptIds }: TTurnIds, now: Date) {
  const selector = turn.selector ? [{ ...turn.selector, step: "selector", n: 1, tokensIn: null, tokensOut: null }] : [];
  const main = attemptsOf(turn).map((a) => ({ ...a, step: "main" }));
  return [...selector, ...main].map((a, i) => ({
    id: attemptIds[i] as string,
    transmissionId,
    step: a.step,
    n: a.n,
    model: a.model,
    tokensIn: a.tokensIn,
    tokensOut: a.tokensOut,
    latencyMs: a.latencyMs,
    outcome: a.outcome,
    reason: a.reason,
    createdAt: now,
  }));
}

/** The validated meta of the answer as its row (Json values as they are; the statement binds them). */
function metaRow(turn: TTurnWrite, responseId: string, now: Date) {
  const meta = turn.meta;
  return {
    responseId,
    modeLabel: meta.modeLabel,
    domainHints: meta.domainHints,
    usedCfbIds: meta.used_cfb_ids,
    ignoredCfbIds: meta.ignored_cfb_ids,
    assumptions: meta.assumptions,
    unknowns: meta.unknowns,
    missingCfbQueries: meta.missing_cfb_queries,
    cfbSuggestions: meta.cfb_suggestions,
    claimMap: meta.claim_map ?? null,
    claimCheck: turn.claimCheck ?? null,
    createdAt: now,
  };
}

type TExchange = {
  packet: TDatabase["Packet"];
  transmission: Omit<TDatabase["Transmission"], "status">;
  attempts: Insertable<TDatabase["DeliveryAttempt"]>[];
  response: TDatabase["Response"];
  meta: ReturnType<typeof metaRow>;
  messages: Omit<TDatabase["Message"], "role">[];
};

// The exchange's statements, prepared (hot path). Json values go through the dialect (PostgreSQL:
// jsonb); a null claim map or claim check is SQL NULL (prepared-sql.ts).
const insertPacket = prepare((v: TExchange["packet"], d) =>
  typed.insertInto("Packet").values({ ...v, messageWindowIds: fragment(d.json(v.messageWindowIds)) }),
);
const insertTransmission = prepare((v: TExchange["transmission"]) =>
  typed.insertInto("Transmission").values({ ...v, status: kyselySql.lit("done") }),
);
const insertAttempts = prepare(
  (v: { rows: TExchange["attempts"] }) => typed.insertInto("DeliveryAttempt").values(v.rows),
  ["rows"],
);
const insertResponse = prepare((v: TExchange["response"]) => typed.insertInto("Response").values(v));
const insertMeta = prepare((v: TExchange["meta"], d) => {
  const json = (value: unknown) => fragment(d.json(value));
  return typed.insertInto("ResponseMeta").values({
    ...v,
    domainHints: json(v.domainHints),
    usedCfbIds: json(v.usedCfbIds),
    ignoredCfbIds: json(v.ignoredCfbIds),
    assumptions: json(v.assumptions),
    unknowns: json(v.unknowns),
    missingCfbQueries: json(v.missingCfbQueries),
    cfbSuggestions: json(v.cfbSuggestions),
    claimMap: json(v.claimMap),
    claimCheck: json(v.claimCheck),
  });
});
// The question's role, then the answer's.
const insertMessages = prepare(
  (v: { question: TExchange["messages"][number]; answer: TExchange["messages"][number] }) =>
    typed.insertInto("Message").values([
      { ...v.question, role: kyselySql.lit("user") },
      { ...v.answer, role: kyselySql.lit("assistant") },
    ]),
  ["question", "answer"],
);

/** The exchange itself: packet -> transmission -> attempts -> response, its meta and both messages. */
export async function insertExchange(tx: TSql, turn: TTurnWrite, ids: TTurnIds, now: Date): Promise<void> {
  const { packetId, transmissionId, responseId } = ids;
  const { threadId, callerId, requestId, requestHash, message, modeLabel, routerDomain, assistantText } = turn;
  const d = tx.dialect;
  const messageWindowIds = [...turn.historyMessageIds, turn.userMessageId];
  const packet = {
    id: packetId,
    threadId,
    callerId,
    requestId,
    requestHash,
    message,
    messageWindowIds,
    createdAt: now,
  };
  await run(tx, insertPacket(packet, d));
  await run(tx, insertTransmission({ id: transmissionId, packetId, modeLabel, routerDomain, createdAt: now }, d));
  await run(tx, insertAttempts({ rows: attemptRows(turn, ids, now) }, d));
  const attemptId = ids.attemptIds.at(-1) as string;
  await run(tx, insertResponse({ id: responseId, transmissionId, attemptId, assistantText, createdAt: now }, d));
  const meta = metaRow(turn, responseId, now);
  await run(tx, insertMeta(meta, d));
  // Both messages in one statement, the answer a millisecond after the question so that
  // history (ordered by time) never shows them the other way round.
  const question = { id: turn.userMessageId, threadId, content: message, packetId, createdAt: now };
  const answer = {
    id: randomUUID(),
    threadId,
    content: assistantText,
    packetId,
    createdAt: new Date(now.getTime() + 1),
  };
  await run(tx, insertMessages({ question, answer }, d));
}
