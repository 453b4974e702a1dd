import {
  type TCfbActivityProposal,
  type TCfbActivityStats,
  type TCfbOp,
  type TProposalStatus,
  ZPromoteAction,
} from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { dateOf, type TSql } from "../sql";

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

type TStatsRow = {
  usage30d: number;
  usedByModel30d: number;
  ignoredByModel30d: number;
  positiveFeedback30d: number;
  negativeFeedback30d: number;
  correctionEvents30d: number;
  unknownRateWhenInjected: number;
  hotness: number;
  lastFeedbackAt: unknown;
  updatedAt: unknown;
};

/** The CFB's activity, or null when there is no such CFB (usage per day needs the dialect's day: the SQL driver). */
export async function getCfbActivity(sql: TSql, q: TCfbActivityQuery): Promise<TCfbActivityRows | null> {
  const [cfb] = await sql.query<{ id: string }>(Prisma.sql`SELECT "id" FROM "Cfb" WHERE "id" = ${q.cfbId}`);
  if (!cfb) return null;
  const [s] = await sql.query<TStatsRow>(Prisma.sql`SELECT * FROM "CfbStats" WHERE "cfbId" = ${q.cfbId}`);
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
  const day = sql.dialect.utcDay(Prisma.sql`"createdAt"`);
  const rows = await sql.query<{ day: string; kind: string; n: number }>(
    Prisma.sql`SELECT ${day} AS "day", "kind" AS "kind", COUNT(*) AS "n" FROM "CfbUsageEvent"
      WHERE "cfbId" = ${q.cfbId} AND "createdAt" >= ${q.since} AND "createdAt" < ${q.until}
      GROUP BY ${day}, "kind"`,
  );
  return rows.flatMap((r) =>
    USAGE_KINDS.has(r.kind) ? [{ day: r.day, kind: r.kind as TUsageKind, count: Number(r.n) }] : [],
  );
}

/**
 * Proposals that named the CFB as their target or were promoted into it, newest first. A
 * proposal promoted into the CFB is `promoted_into` even when it also targeted it: it changed it.
 */
async function proposalsTouching(sql: TSql, q: TCfbActivityQuery): Promise<TCfbActivityProposal[]> {
  const rows = await sql.query<{
    id: string;
    title: string;
    op: string;
    status: string;
    createdAt: unknown;
    action: string | null;
    finalCfbId: string | null;
  }>(
    Prisma.sql`SELECT p."id" AS "id", p."title" AS "title", p."op" AS "op", p."status" AS "status",
        p."createdAt" AS "createdAt", e."action" AS "action", e."finalCfbId" AS "finalCfbId"
      FROM "UmbraProposal" p
      LEFT JOIN "PromotionEvent" e ON e."proposalId" = p."id" AND e."reopenedAt" IS NULL
      ${q.ownerId === undefined ? Prisma.empty : Prisma.sql`JOIN "Thread" t ON t."id" = p."threadId" AND t."ownerId" = ${q.ownerId}`}
      WHERE p."targetCfbId" = ${q.cfbId} OR e."finalCfbId" = ${q.cfbId}
      ORDER BY p."createdAt" DESC, p."id" DESC LIMIT ${q.proposalLimit}`,
  );
  return rows.map((r) => ({
    proposal_id: r.id,
    title: r.title,
    op: r.op as TCfbOp,
    status: r.status as TProposalStatus,
    relation: r.finalCfbId === q.cfbId ? "promoted_into" : "target",
    action: r.action ? ZPromoteAction.parse(r.action) : null,
    created_ts: dateOf(r.createdAt).toISOString(),
  }));
}
