import type { TRunState } from "@solserver/checkpoint";
import { isDomainError, type TStoredProposal } from "@solserver/contracts";
import { heldReasons, type THeld } from "../proposals/held";
import { canApproveAsNew } from "../proposals/promotion-check";
import type { TCaller } from "../services/context";
import type { TServiceDeps } from "../services/deps";
import { promoteProposal, resolveAgain, updateTargetOf } from "../services/promote";
import type { TStep } from "./driver";

// The Umbra beat's steps (UMBRA_BEAT_YAML, packages/checkpoint/src/umbra-beat.ts): collect the
// promotion triggers, resolve every pending proposal again and plan what to promote, (a person
// reviews the plan at the checkpoint), promote exactly that plan, recompute the stats.

/** At most this many pending proposals are planned per beat; the rest wait for the next one. */
const BEAT_MAX_PROPOSALS = 200;
/** A new CFB is promoted by the beat only when the model was at least this sure. */
const BEAT_CREATE_MIN_CONFIDENCE = 0.8;

type TPlanned = {
  proposal_id: string;
  title: string;
  action: "approve_create" | "approve_update";
  target_cfb_id: string | null;
  target_title: string | null;
  /** What the proposal says, in a line. */
  change: string;
  /** Why a person must include it for it to be promoted (held.ts); empty: promoted unless left out. */
  held: THeld[];
};
type TLeft = { proposal_id: string; title: string; reason: string };

/**
 * What the beat would promote for one proposal, or why a person must look at it: resolve's
 * confident update or merge becomes approve_update; a new CFB the model was sure of (and nothing
 * close exists) becomes approve_create; anything resolve left for review stays in the queue.
 */
function beatAction(
  proposal: TStoredProposal,
  resolved: { decision: string; target_cfb_id: string | null },
): { action: TPlanned["action"]; target: string | null } | { reason: string } {
  if (resolved.decision === "update" || resolved.decision === "merge") {
    return resolved.target_cfb_id
      ? { action: "approve_update", target: resolved.target_cfb_id }
      : { reason: "no target" };
  }
  if (resolved.decision === "create") {
    if (!canApproveAsNew(proposal)) return { reason: `an ${proposal.op} that resolve found nothing to apply to` };
    if (proposal.confidence < BEAT_CREATE_MIN_CONFIDENCE)
      return { reason: `model confidence ${proposal.confidence.toFixed(2)} < ${BEAT_CREATE_MIN_CONFIDENCE}` };
    return { action: "approve_create", target: null };
  }
  return { reason: "resolve asks for a person's review" };
}

async function pendingProposals(deps: TServiceDeps): Promise<TStoredProposal[]> {
  const found: TStoredProposal[] = [];
  let cursor: string | undefined;
  while (found.length < BEAT_MAX_PROPOSALS) {
    const page = await deps.repos.proposals.list({ status: "pending", sort: "oldest", cursor, limit: 100 });
    found.push(...page.items);
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return found.slice(0, BEAT_MAX_PROPOSALS);
}

const titleKey = (title: string) => title.toLowerCase().replace(/\s+/g, " ").trim();
const oneLine = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
};

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

function summaryMarkdown(
  planned: TPlanned[],
  left: TLeft[],
  triggers: { label: string; count: number; kind: string }[],
) {
  const lines = [
    "# Umbra beat: review before promotion",
    "",
    `${planned.length} proposal${planned.length === 1 ? "" : "s"} planned, ${planned.filter((p) => p.held.length > 0).length} of them held back until a person includes them; ${left.length} stay${left.length === 1 ? "s" : ""} in the queue for a person.`,
    "",
    "## Would be promoted",
    "",
  ];
  if (planned.length === 0) lines.push("Nothing.");
  else {
    lines.push("| proposal | title | action | CFB | held back because |", "| --- | --- | --- | --- | --- |");
    for (const p of planned) {
      const cfb = p.target_cfb_id ? `${p.target_cfb_id} ${cell(p.target_title ?? "")}` : "new";
      const held = p.held.map((h) => cell(h.note)).join("; ") || "–";
      lines.push(`| ${p.proposal_id} | ${cell(p.title)} | ${p.action} | ${cfb} | ${held} |`);
    }
  }
  lines.push("", "## Left for review", "");
  if (left.length === 0) lines.push("Nothing.");
  else {
    lines.push("| proposal | title | why |", "| --- | --- | --- |");
    for (const p of left) lines.push(`| ${p.proposal_id} | ${cell(p.title)} | ${cell(p.reason)} |`);
  }
  lines.push("", "## Open promotion triggers", "");
  if (triggers.length === 0) lines.push("None.");
  else for (const t of triggers) lines.push(`- ${cell(t.label)} (${t.kind}, ${t.count}×)`);
  return `${lines.join("\n")}\n`;
}

function planOf(state: TRunState): TPlanned[] {
  const plan = (state.context as Record<string, unknown>).plan;
  return Array.isArray(plan) ? (plan as TPlanned[]) : [];
}

function variable(state: TRunState, name: string, fallback: string): string {
  const value = state.variables[name];
  return typeof value === "string" && value ? value : fallback;
}

/** The beat's steps, acting as `caller` (the Jam editor who started or resumed the run). */
export function umbraBeatSteps(deps: TServiceDeps, caller: TCaller): Record<string, TStep> {
  return {
    "umbra.collect_triggers": async () => {
      const triggers = await deps.repos.triggers.list(deps.repetitionThresholds, 50);
      return {
        data: {
          trigger_count: triggers.length,
          triggers: triggers.slice(0, 20).map((t) => ({ kind: t.kind, label: t.label, count: t.count })),
        },
      };
    },
    "umbra.resolve_pending": async ({ state }) => {
      const planned: TPlanned[] = [];
      const left: TLeft[] = [];
      const titles = new Map<string, string>();
      for (const proposal of await pendingProposals(deps)) {
        const { outcome } = await resolveAgain(deps, proposal);
        const verdict = beatAction(proposal, outcome);
        if (!("action" in verdict)) {
          left.push({ proposal_id: proposal.proposal_id, title: proposal.title, reason: verdict.reason });
          continue;
        }
        const update = verdict.action === "approve_update" ? await updateTargetOf(deps, proposal, outcome) : null;
        const held = heldReasons(verdict.action, outcome, update);
        // The same title planned twice would be written twice: the first one stands.
        const key = titleKey(proposal.title);
        const first = titles.get(key);
        if (first) held.push({ code: "duplicate", note: `the plan already promotes ${first} with this title` });
        else titles.set(key, proposal.proposal_id);
        planned.push({
          proposal_id: proposal.proposal_id,
          title: proposal.title,
          action: verdict.action,
          target_cfb_id: update?.target.cfb_id ?? verdict.target,
          target_title: update?.target.title ?? null,
          change: oneLine(proposal.delta_summary),
          held,
        });
      }
      const triggers = ((state.context as Record<string, unknown>).triggers ?? []) as {
        label: string;
        count: number;
        kind: string;
      }[];
      return {
        data: { plan: planned, planned_count: planned.length, left_count: left.length },
        variables: { pending_count: planned.length + left.length },
        artifacts: [
          {
            path: variable(state, "summary_file", "beat-summary.md"),
            content: summaryMarkdown(planned, left, triggers),
          },
        ],
      };
    },
    "umbra.promote_approved": async ({ state }) => {
      const promoted: { proposal_id: string; cfb_id: string | null }[] = [];
      const skipped: { proposal_id: string; reason: string }[] = [];
      // Exactly the plan the person reviewed, less what they left out; a proposal decided or
      // changed since is skipped.
      const context = state.context as Record<string, unknown>;
      const excluded = new Set((context.plan_excluded ?? []) as string[]);
      const included = new Set((context.plan_included ?? []) as string[]);
      for (const p of planOf(state)) {
        if (excluded.has(p.proposal_id)) {
          skipped.push({ proposal_id: p.proposal_id, reason: "left out at the checkpoint: stays in the queue" });
          continue;
        }
        if ((p.held ?? []).length > 0 && !included.has(p.proposal_id)) {
          const why = (p.held ?? []).map((h) => h.note).join("; ");
          skipped.push({ proposal_id: p.proposal_id, reason: `held back (${why}): stays in the queue` });
          continue;
        }
        try {
          const result = await promoteProposal({ deps, caller }, { proposal_id: p.proposal_id, action: p.action });
          promoted.push({ proposal_id: p.proposal_id, cfb_id: result.final_cfb_id });
        } catch (error) {
          if (!isDomainError(error)) throw error;
          skipped.push({ proposal_id: p.proposal_id, reason: error.message });
        }
      }
      return { data: { promoted, skipped, promoted_count: promoted.length } };
    },
    "umbra.recompute_stats": async () => {
      const rebuilt = await deps.repos.stats.rebuild(deps.now());
      return { data: { stats_rebuilt: rebuilt } };
    },
  };
}
