import {
  type TCfbActivityProposal,
  type TCfbActivityStats,
  type TCfbOp,
  type TProposalStatus,
  ZPromoteAction,
} from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { dateOf, type TSql } from "../sql";
import { fragment, rows, type TDatabase, typed } from "../typed-sql";

// What the CFB page shows below the CFB: its stats row, its usage events per UTC day and the
// proposals that touched it. Through the SQL driver: a day is the dialect's (utcDay).

export type TCfbActivityQuery = {
  cfbId: string;
  /** Usage events from `since` (inclusive) to `until` (exclusive). */
  since: Date;
  until: Date;
  /** Only proposals of threads this account owns; undefined for every proposal (Jam). */
  ownerId?: string | undefined;
  proposalLimit: number;
};

type TUsageKind = "injected" | "used" | "ignored";
/** Events of one kind on one UTC day ("YYYY-MM-DD"). */
export type TUsageDayCount = { day: string; kind: TUsageKind; count: number };

export type TCfbActivityRows = {
  stats: TCfbActivityStats | null;
  usage: TUsageDayCount[];
  proposals: TCfbActivityProposal[];
};

const USAGE_KINDS: ReadonlySet<string> = new Set<TUsageKind>(["injected", "used", "ignored"]);

/** The CFB's activity, or null when there is no such CFB (usage per day needs the dialect's day: the SQL driver). */
export async function getCfbActivity(sql: TSql, q: TCfbActivityQuery): Promise<TCfbActivityRows | null> {
  const [cfb] = await rows(sql, typed.selectFrom("Cfb").select("id").where("id", "=", q.cfbId));
  if (!cfb) return null;
  const [s] = await rows(sql, typed.selectFrom("CfbStats").selectAll().where("cfbId", "=", q.cfbId));
  return {
    stats: s
      ? {
          usage_30d: Number(s.usage30d),
          used_by_model_30d: Number(s.usedByModel30d),
          ignored_by_model_30d: Number(s.ignoredByModel30d),
          positive_feedback_30d: Number(s.positiveFeedback30d),
          negative_feedback_30d: Number(s.negativeFeedback30d),
          correction_events_30d: Number(s.correctionEvents30d),
          unknown_rate_when_injected: Number(s.unknownRateWhenInjected),
          hotness: Number(s.hotness),
          last_feedback_ts: s.lastFeedbackAt ? dateOf(s.lastFeedbackAt).toISOString() : null,
          updated_ts: dateOf(s.updatedAt).toISOString(),
        }
      : null,
    usage: await usagePerDay(sql, q),
    proposals: await proposalsTouching(sql, q),
  };
}

/** Usage events counted per UTC day and kind, over the [cfbId, createdAt] index. */
async function usagePerDay(sql: TSql, q: TCfbActivityQuery): Promise<TUsageDayCount[]> {
  // The dialect's day of the column (it takes the column as Prisma SQL; tsc checks the name).
  const createdAt: keyof TDatabase["CfbUsageEvent"] = "createdAt";
  const day = fragment<string>(sql.dialect.utcDay(Prisma.raw(`"${createdAt}"`)));
  const found = await rows(
    sql,
    typed
      .selectFrom("CfbUsageEvent")
      .select((eb) => [day.as("day"), "kind", eb.fn.countAll<number>().as("n")])
      .where("cfbId", "=", q.cfbId)
      .where("createdAt", ">=", q.since)
      .where("createdAt", "<", q.until)
      .groupBy([day, "kind"]),
  );
  return found.flatMap((r) =>
    USAGE_KINDS.has(r.kind) ? [{ day: r.day, kind: r.kind as TUsageKind, count: Number(r.n) }] : [],
  );
}

/**
 * Proposals that named the CFB as their target or were promoted into it, newest first. A
 * proposal promoted into the CFB is `promoted_into` even when it also targeted it: it changed it.
 */
async function proposalsTouching(sql: TSql, q: TCfbActivityQuery): Promise<TCfbActivityProposal[]> {
  const ownerId = q.ownerId ?? null;
  const found = await rows(
    sql,
    typed
      .selectFrom("UmbraProposal as p")
      .leftJoin("PromotionEvent as e", (join) => join.onRef("e.proposalId", "=", "p.id").on("e.reopenedAt", "is", null))
      .$if(ownerId !== null, (qb) =>
        qb.innerJoin("Thread as t", (join) => join.onRef("t.id", "=", "p.threadId").on("t.ownerId", "=", ownerId)),
      )
      .select(["p.id", "p.title", "p.op", "p.status", "p.createdAt", "e.action", "e.finalCfbId"])
      .where((eb) => eb.or([eb("p.targetCfbId", "=", q.cfbId), eb("e.finalCfbId", "=", q.cfbId)]))
      .orderBy("p.createdAt", "desc")
      .orderBy("p.id", "desc")
      .limit(q.proposalLimit),
  );
  return found.map((r) => ({
    proposal_id: r.id,
    title: r.title,
    op: r.op as TCfbOp,
    status: r.status as TProposalStatus,
    relation: r.finalCfbId === q.cfbId ? "promoted_into" : "target",
    action: r.action ? ZPromoteAction.parse(r.action) : null,
    created_ts: dateOf(r.createdAt).toISOString(),
  }));
}
