import type { InsertObject } from "kysely";
import { prepare } from "../prepared-sql";
import { dateOf, type TSql, type TSqlDriver } from "../sql";
import { fragment, rows, run, type TDatabase, typed } from "../typed-sql";
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

type TTurnUsage = { injected: string[]; used: string[]; ignored: string[]; hadUnknown: boolean };

type TStatsInsert = InsertObject<TDatabase, "CfbStats">;

/** The counters a turn's usage rewrites, as they are before it. */
type TCounters = Pick<
  TDatabase["CfbStats"],
  "usage30d" | "usedByModel30d" | "ignoredByModel30d" | "unknownRateWhenInjected" | "hotness" | "updatedAt"
>;

/** The counters of the CFBs `ids`, locked (PostgreSQL), in one order so that two turns queue. */
const lockedCounters = prepare(
  (v: { ids: string[] }, d) =>
    typed
      .selectFrom("CfbStats")
      .select([
        "cfbId",
        "usage30d",
        "usedByModel30d",
        "ignoredByModel30d",
        "unknownRateWhenInjected",
        "hotness",
        "updatedAt",
      ])
      .where("cfbId", "in", v.ids)
      .orderBy("cfbId")
      // the dialect's FOR UPDATE (SQLite: nothing)
      .modifyEnd(fragment(d.forUpdate)),
  ["ids"],
);

/** The counters a turn rewrote, written back. */
const writeCounters = prepare(
  (v: { values: TStatsInsert[] }) =>
    typed
      .insertInto("CfbStats")
      .values(v.values)
      .onConflict((oc) =>
        oc.column("cfbId").doUpdateSet((eb) => ({
          usage30d: eb.ref("excluded.usage30d"),
          usedByModel30d: eb.ref("excluded.usedByModel30d"),
          ignoredByModel30d: eb.ref("excluded.ignoredByModel30d"),
          unknownRateWhenInjected: eb.ref("excluded.unknownRateWhenInjected"),
          hotness: eb.ref("excluded.hotness"),
          updatedAt: eb.ref("excluded.updatedAt"),
        })),
      ),
  ["values"],
);

/**
 * One turn's usage, counted into the stats of the CFBs it injected: usage (injected), used,
 * ignored, the unknown rate (did the answer leave an unknown while this CFB was injected), and
 * hotness (decayed since the last update, plus this use).
 */
export async function countTurnUsage(tx: TSql, u: TTurnUsage, now: Date): Promise<void> {
  const ids = [...new Set([...u.injected, ...u.used, ...u.ignored])];
  if (ids.length === 0) return;
  // Rewritten from what is read here: locked (PostgreSQL), in one order so that two turns on the
  // same CFBs queue instead of deadlocking.
  const found = await rows(tx, lockedCounters({ ids }, tx.dialect));
  const current = new Map(found.map((r) => [r.cfbId, r]));
  const values = ids.flatMap((id) => {
    const r = current.get(id);
    // every CFB gets its stats row when it is written; a missing one is skipped
    return r ? [countedRow(id, r, u, now)] : [];
  });
  if (values.length === 0) return;
  await run(tx, writeCounters({ values }, tx.dialect));
}

/**
 * A CFB's stats row with the turn counted in. Only the counters a turn moves: TDatabase does not
 * know the other columns' defaults and wants them all, hence the cast (the names are still checked).
 */
function countedRow(id: string, r: TCounters, u: TTurnUsage, now: Date): TStatsInsert {
  const injected = u.injected.includes(id) ? 1 : 0;
  const used = u.used.includes(id) ? 1 : 0;
  const usage = Number(r.usage30d) + injected;
  const rate =
    injected && usage > 0
      ? (Number(r.unknownRateWhenInjected) * Number(r.usage30d) + (u.hadUnknown ? 1 : 0)) / usage
      : Number(r.unknownRateWhenInjected);
  const uses = decayedUsesOf(Number(r.hotness)) * decay(now.getTime() - dateOf(r.updatedAt).getTime()) + used;
  return {
    cfbId: id,
    usage30d: usage,
    usedByModel30d: Number(r.usedByModel30d) + used,
    ignoredByModel30d: Number(r.ignoredByModel30d) + (u.ignored.includes(id) ? 1 : 0),
    unknownRateWhenInjected: rate,
    hotness: hotnessOf(uses),
    updatedAt: now,
  } satisfies Partial<TStatsInsert> as TStatsInsert;
}

/** A person's feedback about a CFB, counted into its stats. */
export async function countFeedback(tx: TSql, cfbId: string, polarity: string, now: Date): Promise<void> {
  const column =
    polarity === "positive"
      ? "positiveFeedback30d"
      : polarity === "negative"
        ? "negativeFeedback30d"
        : "correctionEvents30d";
  await run(
    tx,
    typed
      .updateTable("CfbStats")
      .set(column, (eb) => eb(column, "+", eb.lit(1)))
      .set("lastFeedbackAt", now)
      .where("cfbId", "=", cfbId),
  );
}

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

/**
 * Recomputes every CFB's stats from the events of the last 30 days (usage events, feedback, the
 * answers' unknowns) in one transaction: the incremental counters' source of truth, and how
 * events that aged out of the window leave the counts. Returns the number of CFBs rewritten.
 */
async function rebuildCfbStats(driver: TSqlDriver, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - STATS_WINDOW_DAYS * DAY_MS);
  return driver.transaction(async (tx) => {
    const acc = await countWindow(tx, since, now);
    await writeStats(tx, acc, now);
    const [count] = await rows(
      tx,
      typed.selectFrom("CfbStats").select((eb) => eb.fn.countAll<number>().as("n")),
    );
    return Number(count?.n ?? 0);
  });
}

/** The window's usage events and feedback, counted per CFB. */
async function countWindow(tx: TSql, since: Date, now: Date): Promise<Map<string, TAcc>> {
  const usage = await rows(
    tx,
    typed
      .selectFrom("CfbUsageEvent as e")
      .leftJoin("ResponseMeta as m", "m.responseId", "e.responseId")
      .select(["e.cfbId", "e.kind", "e.createdAt", "m.unknowns"])
      .where("e.createdAt", ">=", since),
  );
  const feedback = await rows(
    tx,
    typed
      .selectFrom("HumanFeedback")
      .select(["cfbId", "polarity", "createdAt"])
      .where("cfbId", "is not", null)
      .where("createdAt", ">=", since)
      .$narrowType<{ cfbId: string }>(),
  );
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
  return acc;
}

/** Every CFB's stats row rewritten from the counts: one with no events in the window goes back to zero. */
async function writeStats(tx: TSql, acc: Map<string, TAcc>, now: Date): Promise<void> {
  await run(
    tx,
    typed.updateTable("CfbStats").set((eb) => ({
      usage30d: eb.lit(0),
      usedByModel30d: eb.lit(0),
      ignoredByModel30d: eb.lit(0),
      positiveFeedback30d: eb.lit(0),
      negativeFeedback30d: eb.lit(0),
      correctionEvents30d: eb.lit(0),
      unknownRateWhenInjected: eb.lit(0),
      hotness: eb.lit(0),
      updatedAt: now,
    })),
  );
  for (const [cfbId, a] of acc) {
    await run(
      tx,
      typed
        .updateTable("CfbStats")
        .set((eb) => ({
          usage30d: a.usage,
          usedByModel30d: a.used,
          ignoredByModel30d: a.ignored,
          positiveFeedback30d: a.pos,
          negativeFeedback30d: a.neg,
          correctionEvents30d: a.corr,
          unknownRateWhenInjected: a.usage > 0 ? a.unknown / a.usage : 0,
          hotness: hotnessOf(a.uses),
          lastFeedbackAt: eb.fn.coalesce(eb.val(a.last), "lastFeedbackAt"),
          updatedAt: now,
        }))
        .where("cfbId", "=", cfbId),
    );
  }
}

export function statsRepository({ sql }: TStore) {
  return {
    /** Recomputes every CFB's stats from the last 30 days of events (see rebuildCfbStats). */
    rebuild: (now?: Date) => rebuildCfbStats(sql, now),
  };
}
