import {
  DomainError,
  type TPromotionTrigger,
  ZFeedbackRequest,
  ZTriggerDismissRequest,
  ZTriggerListRequest,
} from "@solserver/contracts";
import type { z } from "zod";
import { parseInput } from "../parse";
import { assertCanSeeThread, requireJam, requireSignedIn } from "./access";
import type { TActor, TServiceDeps } from "./deps";

/**
 * Feedback on an answer by someone who may see its thread (seed 001 §5.1). Its tag is counted
 * per router domain; a tag repeated past its threshold raises a promotion trigger (§5.2).
 */
export async function giveFeedback(
  deps: TServiceDeps,
  actor: TActor,
  input: z.input<typeof ZFeedbackRequest>,
): Promise<{ feedback_id: string; trigger_raised: boolean }> {
  const caller = requireSignedIn(actor);
  const request = parseInput(ZFeedbackRequest, input);
  const thread = await deps.repos.turns.responseThread(request.response_id);
  if (!thread) {
    throw new DomainError("NOT_FOUND", `response ${request.response_id} does not exist`, { field: "response_id" });
  }
  assertCanSeeThread(caller, thread.ownerId, `response ${request.response_id}`);
  if (request.cfb_id !== undefined && (await deps.repos.cfbs.existingIds([request.cfb_id])).size === 0) {
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
  deps: TServiceDeps,
  actor: TActor,
  input: z.input<typeof ZTriggerListRequest>,
): Promise<{ items: TPromotionTrigger[] }> {
  requireJam(actor, "see promotion triggers");
  const { limit } = parseInput(ZTriggerListRequest, input);
  return { items: await deps.repos.triggers.list(deps.repetitionThresholds, limit) };
}

export async function dismissTrigger(
  deps: TServiceDeps,
  actor: TActor,
  input: z.input<typeof ZTriggerDismissRequest>,
): Promise<{ trigger_id: string; dismissed: true }> {
  requireJam(actor, "dismiss promotion triggers");
  const { trigger_id } = parseInput(ZTriggerDismissRequest, input);
  if (!(await deps.repos.triggers.dismiss(trigger_id))) {
    throw new DomainError("NOT_FOUND", `trigger ${trigger_id} is not an open promotion trigger`, {
      field: "trigger_id",
    });
  }
  return { trigger_id, dismissed: true };
}
