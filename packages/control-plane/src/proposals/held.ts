import type { TApproveAction, THeldCode, TResolveOutcome } from "@solserver/contracts";
import type { TCfbRef, TUpdateTarget } from "./promotion-check";
import { protectedCfb } from "./trust";

// Why a proposal's main approval should not be given without a look (issue 35): what a bulk
// approval and the Umbra beat leave out unless a person includes it. Read from resolve's decision
// (its scored candidates: subject and changed values, docs/resolve.md) and the update's target.

export type THeld = { code: THeldCode; note: string };
/** The part of resolve's decision the reasons read (a stored decision carries its scores). */
export type TResolveFacts = Pick<TResolveOutcome, "decision"> & Partial<Pick<TResolveOutcome, "scores">>;

const quote = (title: string) => `"${title.length > 60 ? `${title.slice(0, 59)}…` : title}"`;

export function heldReasons(
  primary: TApproveAction | null,
  resolved: TResolveFacts | null,
  update: TUpdateTarget<TCfbRef> | null,
): THeld[] {
  if (primary === null) return [];
  const held: THeld[] = [];
  if (resolved?.decision === "review")
    held.push({
      code: "resolve_review",
      note: update
        ? `resolve left it for a person: it is close to ${update.target.cfb_id} ${quote(update.target.title)}`
        : "resolve left it for a person",
    });
  if (primary !== "approve_update" || !update) return held;
  const { target } = update;
  const scored = resolved?.scores?.find((s) => s.cfb_id === target.cfb_id);
  if (scored?.subject?.relation === "different") {
    const ours = scored.subject.proposal.join(" ") || "something else";
    const theirs = scored.subject.candidate.join(" ") || "its own subject";
    held.push({
      code: "subject_differs",
      note: `about ${ours}; ${target.cfb_id} ${quote(target.title)} is about ${theirs}`,
    });
  }
  const [change] = scored?.changes ?? [];
  if (change)
    held.push({
      code: "value_changes",
      note: `changes what ${target.cfb_id} says: ${change.old} → ${change.new}${(scored?.changes?.length ?? 0) > 1 ? ` (+${(scored?.changes?.length ?? 1) - 1} more)` : ""}`,
    });
  const guarded = protectedCfb(update);
  if (guarded)
    held.push({ code: "curated", note: `changes curated knowledge: ${guarded.cfb_id} ${quote(guarded.title)}` });
  return held;
}
