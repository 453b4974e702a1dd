import {
  DomainError,
  type TFeedbackRequest,
  type TPromotionTrigger,
  type TTriggerDismissRequest,
  type TTriggerListRequest,
} from "@solserver/contracts";
import { visibleTo } from "@solserver/db";
import { assertCanSeeThread, requireJam } from "./access";
import type { TServiceContext } from "./context";

/**
 * Feedback on an answer by someone who may see its thread (seed 001 §5.1). Its tag is counted
 * per router domain; a tag repeated past its threshold raises a promotion trigger (§5.2).
 */
export async function giveFeedback(
  { deps, caller }: TServiceContext,
  request: TFeedbackRequest,
): Promise<{ feedback_id: string; trigger_raised: boolean }> {
  const thread = await deps.repos.turns.responseThread(request.response_id);
  if (!thread) {
    throw new DomainError("NOT_FOUND", `response ${request.response_id} does not exist`, { field: "response_id" });
  }
  assertCanSeeThread(caller, thread.ownerId, `response ${request.response_id}`);
  // A CFB that could have been in this thread's answers: shared, or private to the thread's owner.
  const inThread = visibleTo(thread.ownerId);
  if (request.cfb_id !== undefined && (await deps.repos.cfbs.existingIds([request.cfb_id], inThread)).size === 0) {
    throw new DomainError("NOT_FOUND", `cfb_id: ${request.cfb_id} does not exist`, { field: "cfb_id" });
  }
  const routerDomain = (await deps.repos.feedback.responseDomain(request.response_id)) ?? "general";
  const { feedbackId, triggerRaised } = await deps.repos.feedback.record({
    responseId: request.response_id,
    cfbId: request.cfb_id ?? null,
    polarity: request.polarity,
    tag: request.tag ?? null,
    comment: request.comment ?? null,
    routerDomain,
    thresholds: deps.repetitionThresholds,
  });
  return { feedback_id: feedbackId, trigger_raised: triggerRaised };
}

/**
 * Open promotion triggers (repetitions past their threshold) for the review queue. Jam only:
 * they aggregate every account's conversations (a missing query is somebody's question).
 */
export async function listTriggers(
  { deps, caller }: TServiceContext,
  { limit }: TTriggerListRequest,
): Promise<{ items: TPromotionTrigger[] }> {
  requireJam(caller, "see promotion triggers");
  return { items: await deps.repos.triggers.list(deps.repetitionThresholds, limit) };
}

export async function dismissTrigger(
  { deps, caller }: TServiceContext,
  { trigger_id }: TTriggerDismissRequest,
): Promise<{ trigger_id: string; dismissed: true }> {
  requireJam(caller, "dismiss promotion triggers");
  if (!(await deps.repos.triggers.dismiss(trigger_id))) {
    throw new DomainError("NOT_FOUND", `trigger ${trigger_id} is not an open promotion trigger`, {
      field: "trigger_id",
    });
  }
  return { trigger_id, dismissed: true };
}
