import {
  type TCfbActivityProposal,
  type TCfbActivityStats,
  type TCfbOp,
  type TProposalStatus,
  ZPromoteAction,
} from "@solserver/contracts";
import type { DbClient } from "../client";
import { Prisma } from "../generated/prisma/client";
import type { TSql } from "../sql";

// What the CFB page shows below the CFB: its stats row, its usage events per UTC day and the
// proposals that touched it. Not a hot path (one page view), so Prisma where it reads well.

export type TCfbActivityQuery = {
  cfbId: string;
  /** Usage events from `since` (inclusive) to `until` (exclusive). */
  since: Date;
  until: Date;
  /** Only proposals of threads this account owns; undefined for every proposal (Jam). */
  ownerId?: string | undefined;
  proposalLimit: number;
};

export type TUsageKind = "injected" | "used" | "ignored";
/** Events of one kind on one UTC day ("YYYY-MM-DD"). */
export type TUsageDayCount = { day: string; kind: TUsageKind; count: number };

export type TCfbActivityRows = {
  stats: TCfbActivityStats | null;
  usage: TUsageDayCount[];
  proposals: TCfbActivityProposal[];
};

const USAGE_KINDS: ReadonlySet<string> = new Set<TUsageKind>(["injected", "used", "ignored"]);

/** The CFB's activity, or null when there is no such CFB. */
export async function getCfbActivity(db: DbClient, sql: TSql, q: TCfbActivityQuery): Promise<TCfbActivityRows | null> {
  const cfb = await db.cfb.findUnique({ where: { id: q.cfbId }, select: { id: true, stats: true } });
  if (!cfb) return null;
  const [usage, proposals] = await Promise.all([usagePerDay(sql, q), proposalsTouching(db, q)]);
  const s = cfb.stats;
  return {
    stats: s
      ? {
          usage_30d: s.usage30d,
          used_by_model_30d: s.usedByModel30d,
          ignored_by_model_30d: s.ignoredByModel30d,
          positive_feedback_30d: s.positiveFeedback30d,
          negative_feedback_30d: s.negativeFeedback30d,
          correction_events_30d: s.correctionEvents30d,
          unknown_rate_when_injected: s.unknownRateWhenInjected,
          hotness: s.hotness,
          last_feedback_ts: s.lastFeedbackAt?.toISOString() ?? null,
          updated_ts: s.updatedAt.toISOString(),
        }
      : null,
    usage,
    proposals,
  };
}

/**
 * Usage events counted per UTC day and kind, over the [cfbId, createdAt] index. Dates are stored
 * as ISO text in UTC ("2025-11-22T09:30:00.000+00:00"), so the day is the first ten characters
 * (on PostgreSQL this would be `to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD')`).
 */
async function usagePerDay(sql: TSql, q: TCfbActivityQuery): Promise<TUsageDayCount[]> {
  const rows = await sql.query<{ day: string; kind: string; n: number }>(
    Prisma.sql`SELECT substr("createdAt", 1, 10) AS "day", "kind" AS "kind", COUNT(*) AS "n" FROM "CfbUsageEvent"
      WHERE "cfbId" = ${q.cfbId} AND "createdAt" >= ${q.since} AND "createdAt" < ${q.until}
      GROUP BY substr("createdAt", 1, 10), "kind"`,
  );
  return rows.flatMap((r) =>
    USAGE_KINDS.has(r.kind) ? [{ day: r.day, kind: r.kind as TUsageKind, count: Number(r.n) }] : [],
  );
}

/**
 * Proposals that named the CFB as their target or were promoted into it, newest first. A
 * proposal promoted into the CFB is `promoted_into` even when it also targeted it: it changed it.
 */
async function proposalsTouching(db: DbClient, q: TCfbActivityQuery): Promise<TCfbActivityProposal[]> {
  const rows = await db.umbraProposal.findMany({
    where: {
      OR: [{ targetCfbId: q.cfbId }, { promotion: { is: { finalCfbId: q.cfbId } } }],
      ...(q.ownerId === undefined ? {} : { thread: { is: { ownerId: q.ownerId } } }),
    },
    select: {
      id: true,
      title: true,
      op: true,
      status: true,
      createdAt: true,
      promotion: { select: { action: true, finalCfbId: true } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.proposalLimit,
  });
  return rows.map((r) => ({
    proposal_id: r.id,
    title: r.title,
    op: r.op as TCfbOp,
    status: r.status as TProposalStatus,
    relation: r.promotion?.finalCfbId === q.cfbId ? "promoted_into" : "target",
    action: r.promotion ? ZPromoteAction.parse(r.promotion.action) : null,
    created_ts: r.createdAt.toISOString(),
  }));
}
