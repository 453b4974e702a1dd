import {
  CFB_ACTIVITY_PROPOSALS_LIMIT,
  DomainError,
  type TCfbActivity,
  type TCfbUsageDay,
  type ZCfbActivityRequest,
} from "@solserver/contracts";
import type { TUsageDayCount } from "@solserver/db";
import type { z } from "zod";
import { assertCanSeeCfb } from "./access";
import type { TServiceContext } from "./context";

const DAY_MS = 86_400_000;

/** Midnight UTC of the day `at` falls on. */
function startOfUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/** The window of `days` UTC days that ends with today: [since, until). */
export function usageWindow(now: Date, days: number): { since: Date; until: Date } {
  const today = startOfUtcDay(now).getTime();
  return { since: new Date(today - (days - 1) * DAY_MS), until: new Date(today + DAY_MS) };
}

/**
 * One entry per UTC day of the window, oldest first and today last, with the counts of each kind
 * (zero on a day without events). Counts for days outside the window are left out.
 */
export function usageByDay(counts: readonly TUsageDayCount[], now: Date, days: number): TCfbUsageDay[] {
  const { since } = usageWindow(now, days);
  const byDay = new Map<string, TCfbUsageDay>();
  for (let i = 0; i < days; i++) {
    const day = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    byDay.set(day, { day, injected: 0, used: 0, ignored: 0 });
  }
  for (const c of counts) {
    const entry = byDay.get(c.day);
    if (entry) entry[c.kind] += c.count;
  }
  return [...byDay.values()];
}

/**
 * A CFB's stats, its usage per day over the last `days` days and the proposals that touched it.
 * Whoever may see the CFB (a shared one: any signed-in account; a private one: its owner and
 * Jam editors), but proposals come from conversations: a user sees those of their own threads, a
 * Jam editor every one.
 */
export async function getCfbActivity(
  ctx: TServiceContext,
  request: z.output<typeof ZCfbActivityRequest>,
): Promise<TCfbActivity> {
  const { deps, caller } = ctx;
  await assertCanSeeCfb(ctx, request.cfb_id);
  const now = deps.now();
  const rows = await deps.repos.cfbs.activity({
    cfbId: request.cfb_id,
    ...usageWindow(now, request.days),
    ownerId: caller.role === "jam" ? undefined : caller.userId,
    proposalLimit: CFB_ACTIVITY_PROPOSALS_LIMIT,
  });
  if (!rows) throw new DomainError("NOT_FOUND", `CFB ${request.cfb_id} does not exist`, { field: "cfb_id" });
  return {
    cfb_id: request.cfb_id,
    stats: rows.stats,
    usage_by_day: usageByDay(rows.usage, now, request.days),
    proposals: rows.proposals,
  };
}
