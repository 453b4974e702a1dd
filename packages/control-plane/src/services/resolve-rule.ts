// Learning from the reviewers (issue 33): every decided proposal is a labelled example (approved
// as an update of X, approved as new, rejected), beside the decision resolve took for it. Jam
// editors see how often the two agreed, per domain, and where they did not; they can refit the
// decision rule's thresholds on the knowledge base's own decisions. A refit is kept only when it
// agrees better than the rule it replaces on a held-out third of those decisions; it is audited,
// and rolling back activates an earlier rule or the shipped one.
import {
  DomainError,
  type TDecisionRule,
  type TResolveAgreement,
  type TResolveRefitResult,
  type TResolveRuleView,
  type TScoredCandidate,
  ZDecisionRule,
  ZScoredCandidate,
} from "@solserver/contracts";
import type { TReviewedDecision } from "@solserver/db";
import { DECISION_RULE, redecide } from "@solserver/resolve";
import { z } from "zod";
import { auditActor, requireJam } from "./access";
import type { TServiceContext } from "./context";
import type { TServiceDeps } from "./deps";

/** A refit needs at least this many reviewed decisions to learn from. */
export const MIN_REFIT_DECISIONS = 50;
/** Decisions read for a refit (the newest). */
const REFIT_WINDOW = 2000;
/** A wrong update or merge costs this many agreements (it overwrites knowledge unasked). */
const HARM = 3;
const DISAGREEMENTS_SHOWN = 20;

/** What the reviewer did with a proposal, as resolve would have said it. */
type TLabel = { kind: "update"; cfbId: string } | { kind: "create" } | { kind: "reject" };

function labelOf(r: TReviewedDecision, candidates: readonly TScoredCandidate[]): TLabel {
  if (r.action === "reject") return { kind: "reject" };
  if (r.action === "approve_update" && r.finalCfbId) return { kind: "update", cfbId: r.finalCfbId };
  // Edited, then approved: an update when it landed on a CFB resolve had compared it with.
  if (r.finalCfbId && candidates.some((c) => c.cfb_id === r.finalCfbId)) return { kind: "update", cfbId: r.finalCfbId };
  return { kind: "create" };
}

/** Whether resolve's decision agreed with the label; null when there is nothing to compare. */
function agrees(decision: { decision: string; target: string | null; merge: readonly string[] }, label: TLabel) {
  if (label.kind === "reject" || decision.decision === "review") return null;
  if (label.kind === "create") return decision.decision === "create";
  if (decision.decision === "update") return decision.target === label.cfbId;
  if (decision.decision === "merge") return decision.merge.includes(label.cfbId);
  return false;
}

function describe(decision: { decision: string; target: string | null }): string {
  return decision.target && decision.decision !== "create"
    ? `${decision.decision} ${decision.target}`
    : decision.decision;
}

const ZScores = z.array(ZScoredCandidate);

type TExample = { row: TReviewedDecision; scores: TScoredCandidate[]; label: TLabel };

function examplesOf(rows: readonly TReviewedDecision[]): TExample[] {
  return rows.flatMap((row) => {
    const scores = ZScores.safeParse(row.scores);
    if (!scores.success) return [];
    return [{ row, scores: scores.data, label: labelOf(row, scores.data) }];
  });
}

/** How resolve's decisions agreed with the reviewers' over the last `limit` decided proposals (Jam editors). */
export async function resolveAgreement(
  { deps, caller }: TServiceContext,
  input: { limit: number },
): Promise<TResolveAgreement> {
  requireJam(caller, "see how resolve agrees with the reviewers");
  const rows = await deps.repos.resolveRules.reviewed(input.limit);
  const domains = new Map<string, { compared: number; agreed: number; reviewed: number }>();
  const disagreements: TResolveAgreement["disagreements"] = [];
  let compared = 0;
  let agreed = 0;
  let reviewed = 0;
  for (const { row, label } of examplesOf(rows)) {
    const tally = domains.get(row.domain) ?? { compared: 0, agreed: 0, reviewed: 0 };
    domains.set(row.domain, tally);
    const decision = { decision: row.decision, target: row.targetCfbId, merge: row.mergeCfbIds };
    if (row.decision === "review") {
      reviewed++;
      tally.reviewed++;
      continue;
    }
    const verdict = agrees(decision, label);
    if (verdict === null) continue;
    compared++;
    tally.compared++;
    if (verdict) {
      agreed++;
      tally.agreed++;
    } else if (disagreements.length < DISAGREEMENTS_SHOWN)
      disagreements.push({
        proposal_id: row.proposalId,
        domain: row.domain,
        resolve: describe(decision),
        reviewer: label.kind === "update" ? `update ${label.cfbId}` : label.kind,
        decided_ts: row.decidedAt,
      });
  }
  return {
    decided: rows.length,
    compared,
    agreed,
    reviewed,
    per_domain: [...domains].map(([domain, t]) => ({ domain, ...t })).sort((a, b) => a.domain.localeCompare(b.domain)),
    disagreements,
    active_rule_id: (await deps.repos.resolveRules.active())?.id ?? null,
  };
}

/** A deterministic third of the examples, by proposal id, is held out. */
function heldOut(proposalId: string): boolean {
  let h = 0;
  for (let i = 0; i < proposalId.length; i++) h = (h * 31 + proposalId.charCodeAt(i)) >>> 0;
  return h % 3 === 0;
}

/** Agreements minus HARM × the updates and merges the reviewers did not make, and the plain agreement share. */
function measure(examples: readonly TExample[], rule: TDecisionRule): { objective: number; agreement: number } {
  let agreed = 0;
  let harmful = 0;
  let n = 0;
  for (const e of examples) {
    if (e.label.kind === "reject") continue;
    n++;
    const o = redecide(e.scores, rule);
    const verdict = agrees({ decision: o.decision, target: o.target_cfb_id, merge: o.merge_cfb_ids }, e.label);
    if (verdict === true) agreed++;
    else if (verdict === false && (o.decision === "update" || o.decision === "merge")) harmful++;
  }
  return { objective: agreed - HARM * harmful, agreement: n === 0 ? 0 : agreed / n };
}

/** The thresholds around `base` a refit tries (the weights stay: a knowledge base has too few decisions to move them). */
function grid(base: TDecisionRule): TDecisionRule[] {
  const out: TDecisionRule[] = [];
  for (const low of [0.4, 0.45, 0.5, 0.55, 0.6])
    for (const high of [0.65, 0.7, 0.75, 0.8, 0.85])
      for (const contradiction of [0.3, 0.35, 0.4, 0.45])
        for (const labelGate of [0.3, 0.4, 0.5])
          if (low < high) out.push({ ...base, labelGate, bands: { ...base.bands, low, high, contradiction } });
  return out;
}

/** The rule resolve decides with now: the active refitted one, else the shipped one. */
export async function activeRule(deps: Pick<TServiceDeps, "repos">): Promise<TDecisionRule> {
  const row = await deps.repos.resolveRules.active();
  const parsed = row ? ZDecisionRule.safeParse(row.rule) : null;
  return parsed?.success ? parsed.data : DECISION_RULE;
}

/** The approved decisions a refit learns from; PRECONDITION_FAILED while there are too few. */
async function refitExamples(deps: TServiceDeps): Promise<TExample[]> {
  const examples = examplesOf(await deps.repos.resolveRules.reviewed(REFIT_WINDOW)).filter(
    (e) => e.label.kind !== "reject",
  );
  if (examples.length < MIN_REFIT_DECISIONS)
    throw new DomainError(
      "PRECONDITION_FAILED",
      `a refit needs at least ${MIN_REFIT_DECISIONS} approved proposals; ${examples.length} so far (${MIN_REFIT_DECISIONS - examples.length} more)`,
    );
  return examples;
}

/**
 * Queues a refit as a background job (Jam editors) and answers at once with its id; the page
 * follows the job to its result. Too few decisions is said at once, before anything is queued.
 */
export async function startRefit({ deps, caller }: TServiceContext): Promise<{ job_id: string }> {
  requireJam(caller, "refit resolve's decision rule");
  await refitExamples(deps);
  // (the web server always has a queue: only a library caller gets here without one)
  if (!deps.jobs) throw new Error("this control plane was opened without a job queue (openControlPlane's `jobs`)");
  const id = await deps.jobs.send("resolve-refit", { by: caller.userId, via: caller.via }, { key: "resolve-refit" });
  if (id === null) throw new DomainError("CONFLICT", "a refit is already queued: follow it on the Jobs page");
  return { job_id: id };
}

/** Refits the decision rule on this knowledge base's reviewed decisions (Jam editors). */
export async function refitResolveRule({ deps, caller }: TServiceContext): Promise<TResolveRefitResult> {
  requireJam(caller, "refit resolve's decision rule");
  const examples = await refitExamples(deps);
  const current = await activeRule(deps);
  const fit = examples.filter((e) => !heldOut(e.row.proposalId));
  const check = examples.filter((e) => heldOut(e.row.proposalId));
  let best = { rule: current, objective: measure(fit, current).objective };
  for (const rule of grid(current)) {
    // 300 rules over up to 2,000 decisions is about 3 s of work in the web process: one rule at a
    // time (about 11 ms), so probes and turns are answered in between
    await new Promise((resolve) => setImmediate(resolve));
    const m = measure(fit, rule);
    if (m.objective > best.objective) best = { rule, objective: m.objective };
  }
  const before = measure(check, current).agreement;
  const after = measure(check, best.rule).agreement;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const result = {
    fitted_on: fit.length,
    checked_on: check.length,
    agreement_before: round(before),
    agreement_after: round(after),
  };
  if (!(after > before))
    return {
      kept: false,
      rule_id: null,
      ...result,
      message: `kept the rule deciding now: the refit agreed with ${Math.round(after * 100)} % of the held-out decisions, it ${Math.round(before * 100)} %`,
    };
  const id = await deps.repos.resolveRules.insertActive(
    {
      rule: best.rule,
      fittedOn: fit.length,
      checkedOn: check.length,
      agreementBefore: result.agreement_before,
      agreementAfter: result.agreement_after,
      createdById: caller.userId,
    },
    {
      ...auditActor(caller),
      action: "resolve_rule.refit",
      targetType: "resolve_rule",
      details: { ...result, rule: best.rule },
    },
    deps.now(),
  );
  return {
    kept: true,
    rule_id: id,
    ...result,
    message: `${id} decides from now on: it agreed with ${Math.round(after * 100)} % of the held-out decisions, the rule before it ${Math.round(before * 100)} %`,
  };
}

/** Every refitted rule, newest first (Jam editors). */
export async function listResolveRules({ deps, caller }: TServiceContext): Promise<TResolveRuleView[]> {
  requireJam(caller, "see resolve's rules");
  return (await deps.repos.resolveRules.list()).flatMap((r) => {
    const rule = ZDecisionRule.safeParse(r.rule);
    return rule.success
      ? [
          {
            rule_id: r.id,
            rule: rule.data,
            active: r.active,
            fitted_on: r.fittedOn,
            checked_on: r.checkedOn,
            agreement_before: r.agreementBefore,
            agreement_after: r.agreementAfter,
            created_ts: r.createdAt,
          },
        ]
      : [];
  });
}

/** Rolls back: makes an earlier refitted rule (or, with null, the shipped one) decide (Jam editors). */
export async function activateResolveRule(
  { deps, caller }: TServiceContext,
  input: { rule_id: string | null },
): Promise<{ active_rule_id: string | null }> {
  requireJam(caller, "change resolve's rule");
  const done = await deps.repos.resolveRules.activate(
    input.rule_id,
    {
      ...auditActor(caller),
      action: "resolve_rule.activate",
      targetType: "resolve_rule",
      targetId: input.rule_id ?? "shipped",
      details: { rule_id: input.rule_id },
    },
    deps.now(),
  );
  if (!done) throw new DomainError("NOT_FOUND", `no resolve rule ${input.rule_id}`, { field: "rule_id" });
  return { active_rule_id: input.rule_id };
}
