import { z } from "zod";
import { ZCfbKind, ZTrustTier } from "./cfb";
import { DOMAIN_ERROR_CODES } from "./errors";
import { ZCfbId } from "./ids";
import { ZPromoteAction } from "./promotion-enums";

export const ZHeldCode = z.enum(["resolve_review", "subject_differs", "value_changes", "curated", "duplicate"]);
export type THeldCode = z.infer<typeof ZHeldCode>;

/** The two approvals a reviewer's main button (and the A key) can send. */
export const ZApproveAction = z.enum(["approve_create", "approve_update"]);
export type TApproveAction = z.infer<typeof ZApproveAction>;

/**
 * What this caller may do with a proposal, as the server decides it: the promotion's own checks
 * run against each of the four actions (a request without `expected_cfb_version`, and for
 * edit_then_approve with overrides that change nothing), so the UI renders this and works out
 * nothing itself. Every proposal the API returns carries it.
 */
export const ZProposalActions = z.object({
  /** The actions `promotion.promote` accepts from this caller now, in the seed's order. Empty once decided. */
  allowed: z.array(ZPromoteAction),
  /**
   * The main approval (the highlighted button, the A key): approve_create when the proposal may
   * stand as a new CFB, else approve_update; null when neither is allowed.
   */
  primary: ZApproveAction.nullable(),
  /**
   * Where approve_update lands (and edit_then_approve when `edit` is "update"): the CFB, its
   * version now, and for a merge the CFB folded into it. Null when approve_update is not allowed.
   */
  update: z
    .object({
      cfb_id: ZCfbId,
      title: z.string(),
      version: z.number().int().min(1),
      merge_cfb_id: ZCfbId.nullable(),
    })
    .nullable(),
  /**
   * Set when the CFB an update would change (its target, or the CFB a merge folds in) is curated
   * knowledge: kind `authoritative` or trust tier `repo_adr`. Only a Jam editor may change it: for
   * anyone else approve_update is unavailable (FORBIDDEN); a Jam editor is warned. `note` says so
   * in a sentence, for the reviewer to read before they decide. Null otherwise.
   */
  protection: z.object({ cfb_id: ZCfbId, kind: ZCfbKind, trust_tier: ZTrustTier, note: z.string() }).nullable(),
  /**
   * Why the main approval should not be given without a look, each with a sentence: resolve left
   * it for a person (`resolve_review`), the update's target is about another subject
   * (`subject_differs`), it changes a value the target states (`value_changes`), or it changes
   * curated knowledge (`curated`); the Umbra beat adds a title it already plans (`duplicate`).
   * Bulk approvals and the Umbra beat leave such proposals out unless a person includes them.
   * Empty when there is no main approval.
   */
  held: z.array(z.object({ code: ZHeldCode, note: z.string() })),
  /**
   * The CFB that may already say what the proposal says (where an update would land, allowed or
   * not): a reviewer may close the proposal as "already known" against it (a rejection naming it,
   * `known_cfb_id`). Null when there is none or the proposal is decided.
   */
  covered_by: z.object({ cfb_id: ZCfbId, title: z.string() }).nullable(),
  /** What edit_then_approve writes: a new CFB, or the update above. Null when this caller may not edit. */
  edit: z.enum(["create", "update"]).nullable(),
  /** Each action not allowed, with the code and message promote answers it with. */
  unavailable: z.array(z.object({ action: ZPromoteAction, code: z.enum(DOMAIN_ERROR_CODES), reason: z.string() })),
  /**
   * `current`: decided as a promotion now would decide it (resolve run again: `proposals.get`,
   * `proposals.review`). `stored`: from resolve's stored decision (`proposals.list`, a chat
   * answer's previews), which keeps a page of the queue cheap; promote resolves again and may
   * then pick another target, or find none.
   */
  basis: z.enum(["current", "stored"]),
});
export type TProposalActions = z.infer<typeof ZProposalActions>;
