import type { TStoredProposal } from "@solserver/contracts";
import type { NotNull, SqlBool } from "kysely";
import { type TPromotionRow, type TResolveDecisionRow, toProposal } from "../mappers";
import type { TSql } from "../sql";
import { rows, typed } from "../typed-sql";
import type { TGroupScope } from "./proposal-counts";

// Proposals as the API shows them, read through the driver: the queue's pages, one proposal's
// page, and a promotion that lost a race (which says who won and when).

/**
 * Who decided each of these proposals (a duplicate: whoever decided the twin it was folded into),
 * by email, from the decision in force (not one reopened since); proposals still pending, or
 * decided by an account deleted since, are left out.
 */
const deciders = (ids: readonly string[]) =>
  typed
    .selectFrom("UmbraProposal as p")
    .innerJoin("PromotionEvent as e", (join) =>
      join
        .on((eb) =>
          eb(
            "e.proposalId",
            "=",
            eb.case().when("p.status", "=", "duplicate").then(eb.ref("p.twinOfId")).else(eb.ref("p.id")).end(),
          ),
        )
        .on("e.reopenedAt", "is", null),
    )
    .innerJoin("User as u", "u.id", "e.decidedById")
    .select(["p.id", "u.email"])
    .where("p.id", "in", ids);

/**
 * The twins of each of these proposals, as rows to sum by id: across owners other people's echoes
 * among them, and the pending twins of those echoes; for one owner's view only their own (another
 * person's decides nothing of theirs).
 */
function twinCounts(sql: TSql, ids: readonly string[], scope: TGroupScope) {
  const twins = typed.selectFrom("UmbraProposal").where("twinOfId", "in", ids).groupBy("twinOfId");
  // `echo` is a condition as it stands (typed as one: the column reads 0 / 1 on SQLite).
  if (!scope.acrossOwners) {
    return rows(
      sql,
      twins
        .select((eb) => ["twinOfId as id", eb.fn.countAll<number | bigint>().as("n"), eb.lit(0).as("echoes")])
        .where((eb) => eb.not(eb.ref("echo").$castTo<SqlBool>()))
        .$narrowType<{ id: NotNull }>(),
    );
  }
  const twinsOfEchoes = typed
    .selectFrom("UmbraProposal as e")
    .innerJoin("UmbraProposal as p", (join) => join.onRef("p.twinOfId", "=", "e.id").on("p.status", "=", "pending"))
    .select((eb) => ["e.twinOfId as id", eb.fn.countAll<number | bigint>().as("n"), eb.lit(0).as("echoes")])
    .where("e.twinOfId", "in", ids)
    .where((eb) => eb.ref("e.echo").$castTo<SqlBool>())
    .where("e.status", "=", "pending")
    .groupBy("e.twinOfId");
  return rows(
    sql,
    twins
      .select((eb) => [
        "twinOfId as id",
        eb.fn.countAll<number | bigint>().as("n"),
        eb.fn.sum<number | bigint>(eb.case().when(eb.ref("echo")).then(1).else(0).end()).as("echoes"),
      ])
      .unionAll(twinsOfEchoes)
      .$narrowType<{ id: NotNull }>(),
  );
}

/**
 * Proposals by id, each with its decisions (the one in force and any reopened), who decided it,
 * its latest resolve decision, its number of twins and of people, in five statements on the driver whatever
 * the page size, in the order of `ids`.
 */
export async function proposalsByIds(
  sql: TSql,
  ids: readonly string[],
  /** Whose proposals of each group count: every person's (a Jam editor's view), or one owner's. */
  scope: TGroupScope = { acrossOwners: true },
): Promise<TStoredProposal[]> {
  if (ids.length === 0) return [];
  const [proposals, promotions, decisions, twins, decidedBy] = await Promise.all([
    rows(sql, typed.selectFrom("UmbraProposal").selectAll().where("id", "in", ids)),
    rows(sql, typed.selectFrom("PromotionEvent").selectAll().where("proposalId", "in", ids)),
    rows(
      sql,
      typed
        .selectFrom("UmbraResolveDecision")
        .selectAll()
        .where("proposalId", "in", ids)
        .orderBy("createdAt", "desc")
        .orderBy("id", "desc"),
    ),
    twinCounts(sql, ids, scope),
    rows(sql, deciders(ids)),
  ]);
  const deciderOf = new Map(decidedBy.map((d) => [d.id, d.email]));
  const promotionsOf = new Map<string, TPromotionRow[]>();
  for (const p of promotions) {
    const rounds = promotionsOf.get(p.proposalId);
    if (rounds) rounds.push(p);
    else promotionsOf.set(p.proposalId, [p]);
  }
  const twinsOf = new Map<string, { n: number; echoes: number }>();
  for (const t of twins) {
    const sum = twinsOf.get(t.id) ?? { n: 0, echoes: 0 };
    twinsOf.set(t.id, { n: sum.n + Number(t.n), echoes: sum.echoes + Number(t.echoes) });
  }
  const latestOf = new Map<string, TResolveDecisionRow>();
  for (const d of decisions) if (!latestOf.has(d.proposalId)) latestOf.set(d.proposalId, d);
  const byId = new Map(proposals.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const latest = latestOf.get(id);
    return [
      toProposal({
        ...row,
        // (TProposalRow's boolean: the column reads 0 / 1 on SQLite)
        echo: Boolean(row.echo),
        promotions: promotionsOf.get(id) ?? [],
        resolveDecision: latest ? [latest] : [],
        twinCount: twinsOf.get(id)?.n ?? 0,
        people: 1 + (twinsOf.get(id)?.echoes ?? 0),
        decidedBy: deciderOf.get(id) ?? null,
      }),
    ];
  });
}
