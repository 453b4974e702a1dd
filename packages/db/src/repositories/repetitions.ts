import { randomUUID } from "node:crypto";
import { type TPromotionTrigger, type TRepetitionKind, ZRepetitionKind } from "@solserver/contracts";
import type { Insertable } from "kysely";
import type { DbClient } from "../client";
import { prepare } from "../prepared-sql";
import { dateOf, type TSql } from "../sql";
import { rows, run, type TDatabase, typed } from "../typed-sql";
import type { TStore } from "./store";
import type { TRepetitionHit } from "./types";

/** What a reviewer should do when a repetition crosses its threshold. */
const SUGGESTIONS: Record<TRepetitionKind, (label: string, count: number) => string> = {
  missing_query: (label, count) => `Asked ${count} times with no CFB to answer it: write a CFB for "${label}".`,
  unknown_type: (label, count) => `${count} answers left a "${label}" unknown: look for the knowledge they lacked.`,
  proposal_fingerprint: (label, count) =>
    `The same proposal came up ${count} times: decide "${label}" once (approve, edit or reject).`,
  cfb_used: (label, count) => `${label} was used ${count} times: confirm it is still right (trust, TTL).`,
  cfb_ignored: (label, count) => `${label} was injected and ignored ${count} times: fix its tags or retire it.`,
  feedback_tag: (label, count) => `Feedback tagged "${label}" ${count} times: review the CFBs involved.`,
  domain_mismatch: (label, count) =>
    `Answers ${label}, ${count} times: teach the router (file the message under the domain it belongs to; docs/routing.md).`,
  cfb_stale: (label, count) =>
    `${label} is past its review date and was used ${count === 1 ? "again" : `${count} times`}: review it (and renew or retire it).`,
};

const countHits = prepare(
  (v: { counters: Insertable<TDatabase["RepetitionCounter"]>[] }) =>
    typed
      .insertInto("RepetitionCounter")
      .values(v.counters)
      .onConflict((oc) =>
        oc.columns(["kind", "routerDomain", "key"]).doUpdateSet((eb) => ({
          count: eb("RepetitionCounter.count", "+", eb.ref("excluded.count")),
          lastSeenAt: eb.ref("excluded.lastSeenAt"),
        })),
      )
      .returning(["id", "kind", "key", "count", "triggeredAt"]),
  ["counters"],
);

const markTriggered = prepare(
  (v: { ids: string[]; now: Date }) =>
    typed.updateTable("RepetitionCounter").set({ triggeredAt: v.now }).where("id", "in", v.ids),
  ["ids"],
);

/**
 * Counts the hits (one statement for all, repeated keys summed first) and raises a trigger on
 * every counter that has just reached its kind's threshold. Runs inside the caller's transaction.
 * Returns the counters that crossed now.
 */
export async function countRepetitions(
  tx: TSql,
  hits: readonly TRepetitionHit[],
  thresholds: Record<TRepetitionKind, number>,
  now = new Date(),
): Promise<{ kind: TRepetitionKind; key: string; count: number }[]> {
  const merged = new Map<string, TRepetitionHit & { n: number }>();
  for (const hit of hits) {
    const id = JSON.stringify([hit.kind, hit.routerDomain, hit.key]);
    const seen = merged.get(id);
    if (seen) seen.n++;
    else merged.set(id, { ...hit, n: 1 });
  }
  if (merged.size === 0) return [];
  const counters = [...merged.values()].map((h) => ({
    id: randomUUID(),
    kind: h.kind,
    routerDomain: h.routerDomain,
    key: h.key,
    label: h.label,
    count: h.n,
    firstSeenAt: now,
    lastSeenAt: now,
  }));
  const counted = await rows(tx, countHits({ counters }, tx.dialect));
  const crossed = counted.filter((r) => {
    const kind = ZRepetitionKind.parse(r.kind);
    return r.triggeredAt === null && Number(r.count) >= thresholds[kind];
  });
  if (crossed.length > 0) {
    await run(tx, markTriggered({ ids: crossed.map((r) => r.id), now }, tx.dialect));
  }
  return crossed.map((r) => ({ kind: ZRepetitionKind.parse(r.kind), key: r.key, count: Number(r.count) }));
}

/** Open promotion triggers (raised, not dismissed), most recently seen first; or the one with `id`. */
async function listPromotionTriggers(
  db: DbClient,
  thresholds: Record<TRepetitionKind, number>,
  limit: number,
  id?: string,
): Promise<TPromotionTrigger[]> {
  const rows = await db.repetitionCounter.findMany({
    where: { triggeredAt: { not: null }, dismissedAt: null, ...(id === undefined ? {} : { id }) },
    select: {
      id: true,
      kind: true,
      routerDomain: true,
      key: true,
      label: true,
      count: true,
      firstSeenAt: true,
      lastSeenAt: true,
    },
    orderBy: [{ lastSeenAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map((r) => {
    const kind = ZRepetitionKind.parse(r.kind);
    return {
      trigger_id: r.id,
      kind,
      router_domain: r.routerDomain,
      key: r.key,
      label: r.label,
      count: r.count,
      threshold: thresholds[kind],
      suggestion: SUGGESTIONS[kind](r.label, r.count),
      first_seen_ts: dateOf(r.firstSeenAt).toISOString(),
      last_seen_ts: dateOf(r.lastSeenAt).toISOString(),
    };
  });
}

/** Dismisses an open trigger; false when there is no such open trigger. */
async function dismissPromotionTrigger(sql: TSql, triggerId: string, now = new Date()): Promise<boolean> {
  const changed = await run(
    sql,
    typed
      .updateTable("RepetitionCounter")
      .set({ dismissedAt: now })
      .where("id", "=", triggerId)
      .where("triggeredAt", "is not", null)
      .where("dismissedAt", "is", null),
  );
  return changed === 1;
}

/** Promotion triggers (repetitions past their threshold) for the review queue. */
export function triggerRepository({ prisma, sql }: TStore) {
  return {
    list: (thresholds: Record<TRepetitionKind, number>, limit: number) =>
      listPromotionTriggers(prisma, thresholds, limit),
    /** The open trigger `triggerId`, or null. */
    open: async (thresholds: Record<TRepetitionKind, number>, triggerId: string) =>
      (await listPromotionTriggers(prisma, thresholds, 1, triggerId))[0] ?? null,
    dismiss: (triggerId: string) => dismissPromotionTrigger(sql, triggerId),
    count: (hits: readonly TRepetitionHit[], thresholds: Record<TRepetitionKind, number>, now?: Date) =>
      sql.transaction((tx) => countRepetitions(tx, hits, thresholds, now)),
  };
}
