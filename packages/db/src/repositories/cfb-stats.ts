import { Prisma } from "../generated/prisma/client";
import { dateOf, type TSql, type TSqlDriver } from "../sql";
import type { TStore } from "./store";

// CFB stats (seed 001 §2.2): decoration derived from events. Kept up to date incrementally in
// the transaction that writes each event (a turn's usage, a person's feedback), and rebuildable
// from the events at any time: the rebuild is also what applies the 30-day window, since an
// incremental counter cannot forget an event as it ages out.

const STATS_WINDOW_DAYS = 30;
/** hotness half-life: a CFB used once a week stays warm, one unused for a month cools down. */
const HOTNESS_HALF_LIFE_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * hotness in [0, 1): 1 − e^(−H/10), where H is the count of "used" events, each decayed by its
 * age with a 7-day half-life. Ten recent uses make a CFB about 0.63 hot; one use a month ago
 * about 0.006.
 */
function hotnessOf(decayedUses: number): number {
  return 1 - Math.exp(-decayedUses / 10);
}
function decayedUsesOf(hotness: number): number {
  return hotness >= 1 ? Number.POSITIVE_INFINITY : -10 * Math.log(1 - Math.max(0, hotness));
}
const decay = (elapsedMs: number) => 0.5 ** (Math.max(0, elapsedMs) / (HOTNESS_HALF_LIFE_DAYS * DAY_MS));

type TStatsRow = {
  cfbId: string;
  usage30d: number;
  usedByModel30d: number;
  ignoredByModel30d: number;
  unknownRateWhenInjected: number;
  hotness: number;
  updatedAt: unknown;
};

/**
 * One turn's usage, counted into the stats of the CFBs it injected: usage (injected), used,
 * ignored, the unknown rate (did the answer leave an unknown while this CFB was injected), and
 * hotness (decayed since the last update, plus this use).
 */
export async function countTurnUsage(
  tx: TSql,
  u: { injected: string[]; used: string[]; ignored: string[]; hadUnknown: boolean },
  now: Date,
): Promise<void> {
  const ids = [...new Set([...u.injected, ...u.used, ...u.ignored])];
  if (ids.length === 0) return;
  // Rewritten from what is read here: locked (PostgreSQL), in one order so that two turns on the
  // same CFBs queue instead of deadlocking.
  const rows = await tx.query<TStatsRow>(Prisma.sql`SELECT "cfbId", "usage30d", "usedByModel30d", "ignoredByModel30d",
      "unknownRateWhenInjected", "hotness", "updatedAt" FROM "CfbStats" WHERE "cfbId" IN (${Prisma.join(ids)})
      ORDER BY "cfbId" ${tx.dialect.forUpdate}`);
  const current = new Map(rows.map((r) => [r.cfbId, r]));
  const values = ids.flatMap((id) => {
    const r = current.get(id);
    if (!r) return []; // every CFB gets its stats row when it is written; a missing one is skipped
    const injected = u.injected.includes(id) ? 1 : 0;
    const used = u.used.includes(id) ? 1 : 0;
    const usage = Number(r.usage30d) + injected;
    const rate =
      injected && usage > 0
        ? (Number(r.unknownRateWhenInjected) * Number(r.usage30d) + (u.hadUnknown ? 1 : 0)) / usage
        : Number(r.unknownRateWhenInjected);
    const uses = decayedUsesOf(Number(r.hotness)) * decay(now.getTime() - dateOf(r.updatedAt).getTime()) + used;
    return [
      Prisma.sql`(${id}, ${usage}, ${Number(r.usedByModel30d) + used}, ${Number(r.ignoredByModel30d) + (u.ignored.includes(id) ? 1 : 0)},
        ${rate}, ${hotnessOf(uses)}, ${now})`,
    ];
  });
  if (values.length === 0) return;
  await tx.execute(Prisma.sql`INSERT INTO "CfbStats" ("cfbId", "usage30d", "usedByModel30d", "ignoredByModel30d",
      "unknownRateWhenInjected", "hotness", "updatedAt") VALUES ${Prisma.join(values)}
    ON CONFLICT ("cfbId") DO UPDATE SET "usage30d" = excluded."usage30d", "usedByModel30d" = excluded."usedByModel30d",
      "ignoredByModel30d" = excluded."ignoredByModel30d", "unknownRateWhenInjected" = excluded."unknownRateWhenInjected",
      "hotness" = excluded."hotness", "updatedAt" = excluded."updatedAt"`);
}

/** A person's feedback about a CFB, counted into its stats. */
export async function countFeedback(tx: TSql, cfbId: string, polarity: string, now: Date): Promise<void> {
  const column =
    polarity === "positive"
      ? Prisma.raw('"positiveFeedback30d"')
      : polarity === "negative"
        ? Prisma.raw('"negativeFeedback30d"')
        : Prisma.raw('"correctionEvents30d"');
  await tx.execute(Prisma.sql`UPDATE "CfbStats" SET ${column} = ${column} + 1, "lastFeedbackAt" = ${now}
    WHERE "cfbId" = ${cfbId}`);
}

/**
 * Recomputes every CFB's stats from the events of the last 30 days (usage events, feedback, the
 * answers' unknowns) in one transaction: the incremental counters' source of truth, and how
 * events that aged out of the window leave the counts. Returns the number of CFBs rewritten.
 */
async function rebuildCfbStats(driver: TSqlDriver, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - STATS_WINDOW_DAYS * DAY_MS);
  return driver.transaction(async (tx) => {
    const usage = await tx.query<{ cfbId: string; kind: string; createdAt: unknown; unknowns: unknown }>(
      Prisma.sql`SELECT e."cfbId" AS "cfbId", e."kind" AS "kind", e."createdAt" AS "createdAt", m."unknowns" AS "unknowns"
        FROM "CfbUsageEvent" e LEFT JOIN "ResponseMeta" m ON m."responseId" = e."responseId"
        WHERE e."createdAt" >= ${since}`,
    );
    const feedback = await tx.query<{ cfbId: string; polarity: string; createdAt: unknown }>(
      Prisma.sql`SELECT "cfbId", "polarity", "createdAt" FROM "HumanFeedback"
        WHERE "cfbId" IS NOT NULL AND "createdAt" >= ${since}`,
    );
    type TAcc = {
      usage: number;
      used: number;
      ignored: number;
      unknown: number;
      uses: number;
      pos: number;
      neg: number;
      corr: number;
      last: Date | null;
    };
    const acc = new Map<string, TAcc>();
    const of = (id: string) => {
      let a = acc.get(id);
      if (!a) {
        a = { usage: 0, used: 0, ignored: 0, unknown: 0, uses: 0, pos: 0, neg: 0, corr: 0, last: null };
        acc.set(id, a);
      }
      return a;
    };
    for (const e of usage) {
      const a = of(e.cfbId);
      if (e.kind === "injected") {
        a.usage++;
        const unknowns = typeof e.unknowns === "string" ? JSON.parse(e.unknowns) : e.unknowns;
        if (Array.isArray(unknowns) && unknowns.length > 0) a.unknown++;
      } else if (e.kind === "used") {
        a.used++;
        a.uses += decay(now.getTime() - dateOf(e.createdAt).getTime());
      } else if (e.kind === "ignored") a.ignored++;
    }
    for (const f of feedback) {
      const a = of(f.cfbId);
      if (f.polarity === "positive") a.pos++;
      else if (f.polarity === "negative") a.neg++;
      else a.corr++;
      const at = dateOf(f.createdAt);
      if (!a.last || at > a.last) a.last = at;
    }
    // Every CFB's row is rewritten: one with no events in the window goes back to zero.
    await tx.execute(Prisma.sql`UPDATE "CfbStats" SET "usage30d" = 0, "usedByModel30d" = 0, "ignoredByModel30d" = 0,
      "positiveFeedback30d" = 0, "negativeFeedback30d" = 0, "correctionEvents30d" = 0, "unknownRateWhenInjected" = 0,
      "hotness" = 0, "updatedAt" = ${now}`);
    for (const [cfbId, a] of acc) {
      await tx.execute(Prisma.sql`UPDATE "CfbStats" SET "usage30d" = ${a.usage}, "usedByModel30d" = ${a.used},
        "ignoredByModel30d" = ${a.ignored}, "positiveFeedback30d" = ${a.pos}, "negativeFeedback30d" = ${a.neg},
        "correctionEvents30d" = ${a.corr}, "unknownRateWhenInjected" = ${a.usage > 0 ? a.unknown / a.usage : 0},
        "hotness" = ${hotnessOf(a.uses)}, "lastFeedbackAt" = COALESCE(${a.last}, "lastFeedbackAt"), "updatedAt" = ${now}
        WHERE "cfbId" = ${cfbId}`);
    }
    const [count] = await tx.query<{ n: number }>(Prisma.sql`SELECT COUNT(*) AS "n" FROM "CfbStats"`);
    return Number(count?.n ?? 0);
  });
}

export function statsRepository({ sql }: TStore) {
  return {
    /** Recomputes every CFB's stats from the last 30 days of events (see rebuildCfbStats). */
    rebuild: (now?: Date) => rebuildCfbStats(sql, now),
  };
}
