import { randomUUID } from "node:crypto";
import { DomainError } from "@solserver/contracts";
import { sql as kyselySql, type SqlBool } from "kysely";
import { Prisma } from "../generated/prisma/client";
import { allocateIds, idNumber } from "../ids";
import { prepare } from "../prepared-sql";
import { isUniqueViolation, type TSql, type TSqlDriver } from "../sql";
import { fragment, rows, run, typed } from "../typed-sql";
import { countTurnUsage } from "./cfb-stats";
import { writeContext } from "./contexts";
import { insertGateEvaluations } from "./gate";
import { writeTurnMemento } from "./mementos";
import { addProposalCounts } from "./proposal-counts";
import { countRepetitions } from "./repetitions";
import { insertResolveDecisions } from "./resolve";
import { insertTraceRun } from "./traces";
import { attemptsOf, insertExchange, type TTurnIds } from "./turn-exchange";
import type { TNewProposal, TStoredTurn, TTurnWrite } from "./types";

// A chat turn's write (the turn repository's `record`, turns.ts): every row of the turn in one
// transaction on the hot-path driver. Constant values stay SQL literals (`kyselySql.lit`), as the
// statements have always written them, rather than bound parameters.

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

/** Every row of a turn, in the caller's transaction. */
async function writeTurn(tx: TSql, turn: TTurnWrite): Promise<TStoredTurn> {
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
    // Read committed: a turn is inserts, increments, conditional writes and stats rows read
    // FOR UPDATE; concurrent turns wait for each other's counter rows instead of conflicting.
    return await driver.transaction((tx) => writeTurn(tx, turn), { isolation: "read committed" });
  } catch (error) {
    // The (callerId, requestId) key of Packet: a concurrent retry of this request stored first.
    if (isUniqueViolation(error, driver, "Packet", "requestId")) return "duplicate";
    throw error;
  }
}

/**
 * A turn's write, rolled back: the start-up rehearsal (control-plane's turn/rehearsal.ts) runs
 * every statement of it once, so the first user's turn finds them prepared, and keeps nothing.
 * On PostgreSQL the ids it took stay taken: a gap, as any rolled-back write leaves one.
 */
export async function rehearseTurnWrite(driver: TSqlDriver, turn: TTurnWrite): Promise<void> {
  const rolledBack = new Error("rehearsal: rolled back");
  await driver
    .transaction(
      async (tx) => {
        await writeTurn(tx, turn);
        throw rolledBack;
      },
      { isolation: "read committed" },
    )
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    });
}
