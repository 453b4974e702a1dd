import { randomUUID } from "node:crypto";
import { DomainError } from "@solserver/contracts";
import { type Insertable, sql as kyselySql, type SqlBool } from "kysely";
import { Prisma } from "../generated/prisma/client";
import { allocateIds, idNumber } from "../ids";
import { prepare } from "../prepared-sql";
import { isUniqueViolation, type TSql, type TSqlDriver } from "../sql";
import { fragment, rows, run, type TDatabase, typed } from "../typed-sql";
import { countTurnUsage } from "./cfb-stats";
import { writeContext } from "./contexts";
import { insertGateEvaluations } from "./gate";
import { writeTurnMemento } from "./mementos";
import { addProposalCounts } from "./proposal-counts";
import { countRepetitions } from "./repetitions";
import { insertResolveDecisions } from "./resolve";
import { insertTraceRun } from "./traces";
import type { TNewProposal, TStoredTurn, TTurnWrite } from "./types";

// A chat turn's write (the turn repository's `record`, turns.ts): every row of the turn in one
// transaction on the hot-path driver. Constant values stay SQL literals (`kyselySql.lit`), as the
// statements have always written them, rather than bound parameters.

/** The attempts to store: every try at the model (n = 1..N), or one "ok" attempt when none was recorded. */
function attemptsOf(turn: TTurnWrite): TTurnWrite["attempts"] {
  if (turn.attempts.length > 0) return turn.attempts;
  const { model, tokensIn, tokensOut, latencyMs } = turn;
  return [{ n: 1, model, tokensIn, tokensOut, latencyMs, outcome: "ok", reason: null }];
}

/** The ids of a turn's new proposals (in the turn's order), their response and the turn's time. */
type TProposalIds = { ids: readonly string[]; responseId: string; now: Date };

/** A turn's new proposals as their rows, twins linked to their leads as found before the transaction. */
function proposalRows(tx: TSql, turn: TTurnWrite, { ids, responseId, now }: TProposalIds) {
  // Json as the dialect binds it (PostgreSQL casts the text to jsonb).
  const json = (value: unknown) => fragment(tx.dialect.json(value));
  const twinOfId = (p: TNewProposal) =>
    !p.twinOf ? null : "proposalId" in p.twinOf ? p.twinOf.proposalId : (ids[p.twinOf.index] ?? null);
  return turn.proposals.map((p, i) => ({
    id: ids[i] as string,
    responseId,
    threadId: turn.threadId,
    suggestionIndex: p.suggestionIndex,
    op: p.op,
    targetCfbId: p.targetCfbId,
    warnings: json(p.warnings),
    title: p.title,
    deltaSummary: p.deltaSummary,
    proposedCfb: json(p.proposedCfb),
    rationale: p.rationale,
    confidence: p.confidence,
    fingerprint: p.fingerprint,
    status: kyselySql.lit("pending"),
    domain: p.proposedCfb.domain,
    latestDecision: p.resolve?.outcome.decision ?? null,
    seq: idNumber(ids[i] as string),
    twinOfId: twinOfId(p),
    echo: Boolean(p.twinOf && "echo" in p.twinOf && p.twinOf.echo),
    createdAt: now,
  }));
}

/**
 * Unlinks the response's twins whose lead no longer leads: it must be pending and grouped under
 * nobody, or (for a twin that is not an echo) an echo.
 */
const unlinkFromLapsedLeads = prepare((v: { responseId: string }) =>
  typed
    .updateTable("UmbraProposal")
    .set((eb) => ({ twinOfId: eb.lit(null), echo: false }))
    .where("responseId", "=", v.responseId)
    .where("twinOfId", "is not", null)
    .where(({ not, exists, selectFrom, lit }) =>
      not(
        exists(
          selectFrom("UmbraProposal as l")
            .select(lit(1).as("one"))
            .whereRef("l.id", "=", "UmbraProposal.twinOfId")
            .where("l.status", "=", kyselySql.lit("pending"))
            .where((eb) =>
              eb.or([
                eb("l.twinOfId", "is", null),
                // `echo` is a boolean column (0 / 1 on SQLite), a condition as it stands.
                eb.and([eb.ref("l.echo").$castTo<SqlBool>(), eb.not(eb.ref("UmbraProposal.echo").$castTo<SqlBool>())]),
              ]),
            ),
        ),
      ),
    ),
);

/**
 * A turn's proposals, grouped under the twins found before the transaction (a lead decided since
 * leads nothing), counted in the queue counts, with resolve's decision on each.
 */
async function insertTurnProposals(tx: TSql, turn: TTurnWrite, { ids, responseId, now }: TProposalIds): Promise<void> {
  if (turn.proposals.length > 0) {
    await run(tx, typed.insertInto("UmbraProposal").values(proposalRows(tx, turn, { ids, responseId, now })));
    // Twins were found before this transaction: a lead decided since (its group folded) leads
    // nothing any more, so a proposal grouped under it stands on its own instead of hiding.
    // A lead is pending and grouped under nobody, or (for a twin of the same owner) an echo.
    const leads = turn.proposals.flatMap((p) => (p.twinOf && "proposalId" in p.twinOf ? [p.twinOf.proposalId] : []));
    if (leads.length > 0) {
      // Writing the leads' rows makes this link and a decision of the group conflict on
      // PostgreSQL: a decision (serializable) that read the group before this turn commits
      // fails its write and reads the group again, new proposal included; one that wrote
      // first makes this statement wait, and the check below then sees the lead decided.
      await run(
        tx,
        typed
          .updateTable("UmbraProposal")
          .set((eb) => ({ twinOfId: eb.ref("twinOfId") }))
          .where("id", "in", [...new Set(leads)]),
      );
    }
    if (turn.proposals.some((p) => p.twinOf)) await run(tx, unlinkFromLapsedLeads({ responseId }, tx.dialect));
    // Counted as they now stand (a lead, or a twin), in the queue counts of the thread's owner.
    // (addProposalCounts takes its condition over `p` as a Prisma.Sql fragment.)
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
    await run(
      tx,
      typed.insertInto("CfbUsageEvent").values(
        usage.map((u) => ({
          id: randomUUID(),
          cfbId: u.cfbId,
          responseId,
          routerDomain: turn.routerDomain,
          kind: u.kind,
          createdAt: now,
        })),
      ),
    );
  }
}

/** The ids a turn's rows take, allocated up front. */
type TTurnIds = {
  packetId: string;
  transmissionId: string;
  responseId: string;
  /** The selector step's attempt first (when there is one), then the main attempts in order. */
  attemptIds: readonly string[];
};

/**
 * Creates the thread or touches it, and returns its owner in the same statement: the owner is
 * checked in the write transaction, as the thread may have been created by someone else since the
 * service looked (a concurrent first turn with the same thread_id).
 */
async function touchThread(tx: TSql, turn: TTurnWrite, now: Date): Promise<string | null | undefined> {
  const thread = { id: turn.threadId, title: turn.threadTitle, ownerId: turn.ownerId, now };
  const [touched] = await rows(tx, upsertThread(thread, tx.dialect));
  return touched?.ownerId;
}

const upsertThread = prepare((v: { id: string; title: string; ownerId: string | null; now: Date }) =>
  typed
    .insertInto("Thread")
    .values({ id: v.id, title: v.title, ownerId: v.ownerId, createdAt: v.now, updatedAt: v.now })
    .onConflict((oc) => oc.column("id").doUpdateSet((eb) => ({ updatedAt: eb.ref("excluded.updatedAt") })))
    .returning("ownerId"),
);

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
// jsonb); a null claim map or claim check stays SQL NULL, one statement for each combination.
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
const insertMeta = (claims: { map: boolean; check: boolean }) =>
  prepare((v: TExchange["meta"], d) => {
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
      claimMap: claims.map ? json(v.claimMap) : null,
      claimCheck: claims.check ? json(v.claimCheck) : null,
    });
  });
const INSERT_META = {
  plain: insertMeta({ map: false, check: false }),
  map: insertMeta({ map: true, check: false }),
  check: insertMeta({ map: false, check: true }),
  both: insertMeta({ map: true, check: true }),
};
const metaStatement = ({ claimMap, claimCheck }: TExchange["meta"]) =>
  INSERT_META[claimMap === null ? (claimCheck === null ? "plain" : "check") : claimCheck === null ? "map" : "both"];
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
async function insertExchange(tx: TSql, turn: TTurnWrite, ids: TTurnIds, now: Date): Promise<void> {
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
  await run(tx, metaStatement(meta)(meta, d));
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

/** The previews of the turn's proposals, in suggestion order, as a stored turn returns them. */
function proposalPreviews(turn: TTurnWrite, proposalIds: readonly string[]): TStoredTurn["proposals"] {
  return turn.proposals
    .map((p, i) => ({
      proposal_id: proposalIds[i] as string,
      op: p.op,
      target_cfb_id: p.targetCfbId,
      title: p.title,
      delta_summary: p.deltaSummary,
      confidence: p.confidence,
      warnings: p.warnings,
      suggestionIndex: p.suggestionIndex,
    }))
    .sort((x, y) => x.suggestionIndex - y.suggestionIndex)
    .map(({ suggestionIndex: _, ...preview }) => preview);
}

/**
 * Writes a whole turn in one transaction: thread, both messages, packet -> transmission ->
 * attempts -> response, the validated meta, the proposals, usage events, the memento (conditional
 * on the version the turn read) and the trace. Every table gets one statement (multi-row inserts),
 * sent through the hot-path driver. Returns "duplicate" when another request with the same
 * request_id won the race.
 */
export async function recordTurn(driver: TSqlDriver, turn: TTurnWrite): Promise<TStoredTurn | "duplicate"> {
  try {
    return await driver.transaction(
      async (tx) => {
        const ids = await allocateIds(tx, {
          packet: 1,
          transmission: 1,
          response: 1,
          // The selector step (seed 001 §7.1) is an attempt of its own, before the main ones.
          attempt: (turn.selector ? 1 : 0) + attemptsOf(turn).length,
          proposal: turn.proposals.length,
        });
        const turnIds: TTurnIds = {
          packetId: ids.packet[0] as string,
          transmissionId: ids.transmission[0] as string,
          responseId: ids.response[0] as string,
          attemptIds: ids.attempt,
        };
        const { packetId, transmissionId, responseId } = turnIds;
        const now = new Date();
        const ownerId = await touchThread(tx, turn, now);
        if (!turn.mayWriteAnyThread && ownerId !== turn.ownerId) {
          throw new DomainError("FORBIDDEN", `you may not access thread ${turn.threadId}`);
        }
        await insertExchange(tx, turn, turnIds, now);
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
          attemptId: ids.attempt.at(-1) as string,
          responseId,
          assistantText: turn.assistantText,
          requestHash: turn.requestHash,
          proposals: proposalPreviews(turn, ids.proposal),
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
