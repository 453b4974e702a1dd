import { DomainError } from "./errors";
import type { TStoredProposal } from "./proposals";

// "Already decided", said the same way wherever it is found out: promote's checks on the proposal
// as read, the allowed actions every proposal carries, and the write that lost a race. It names who
// decided what and when, and what is left to do, so a reviewer holding a stale card knows at once.

/** What the message reads of a decided proposal (the final CFB of its promotion, when it wrote one). */
export type TDecidedFacts = Pick<TStoredProposal, "proposal_id" | "status" | "twin_of_id"> &
  Partial<Pick<TStoredProposal, "decided_ts" | "decided_by">> & { final_cfb_id?: string | null };

/** An instant to the minute, in UTC: "2026-11-27 15:02 UTC". */
export function utcMinute(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

function byWhomWhen(p: TDecidedFacts): string {
  const who = p.decided_by ? ` by ${p.decided_by}` : "";
  return `${who}${p.decided_ts ? ` at ${utcMinute(p.decided_ts)}` : ""}`;
}

/** Who decided the proposal what and when, and what is left to do (a sentence without its final stop). */
export function decidedMessage(p: TDecidedFacts): string {
  const id = `proposal ${p.proposal_id}`;
  switch (p.status) {
    case "approved":
      return p.final_cfb_id
        ? `${id} was already approved${byWhomWhen(p)} as ${p.final_cfb_id}: nothing left to decide (to change that knowledge, edit ${p.final_cfb_id})`
        : `${id} was already approved${byWhomWhen(p)}: nothing left to decide`;
    case "rejected":
      return `${id} was already rejected${byWhomWhen(p)}: nothing left to decide`;
    case "duplicate":
      return `${id} was already folded into its twin ${p.twin_of_id ?? "(deleted)"}, decided${byWhomWhen(p)}: nothing left to decide (open ${p.twin_of_id ?? "the twin"} for its decision)`;
    default:
      return `${id} is ${p.status}`;
  }
}

/** The CONFLICT a decision on an already-decided proposal answers (field `proposal_id`). */
export function proposalDecidedConflict(p: TDecidedFacts): DomainError {
  return new DomainError("CONFLICT", decidedMessage(p), { field: "proposal_id" });
}
