import { createHash } from "node:crypto";
import {
  DomainError,
  type TChatRespondRequest,
  type TChatRespondResponse,
  type TProcedureView,
} from "@solserver/contracts";
import type { TStoredTurn } from "@solserver/db";
import type { TServiceContext } from "../context";
import { threadProcedureView } from "../procedures";
import { previewsWithActions } from "../proposal-actions";

// A chat turn's answer as the API returns it: built from a stored turn, for a new turn and for a
// replay of one (the same request_id sent again). respond.ts owns the order of a turn; this owns
// its idempotency key's fingerprint and the answer's shape.

/** The request's fingerprint: a request_id reused with another body is refused. */
export function requestHash(input: TChatRespondRequest): string {
  return createHash("sha256")
    .update(
      JSON.stringify({
        thread_id: input.thread_id ?? null,
        message: input.message,
        context: input.context ?? null,
        ...(input.procedure === undefined ? {} : { procedure: input.procedure }),
      }),
    )
    .digest("hex");
}

export type TBreakpointView = TChatRespondResponse["breakpoint"];

/** The answer to a stored turn; its proposal previews carry what the caller may do with them. */
export async function toResponse(
  ctx: TServiceContext,
  turn: TStoredTurn,
  replayed: boolean,
  breakpoint: TBreakpointView,
  procedure: TProcedureView | null,
): Promise<TChatRespondResponse> {
  const previews = await previewsWithActions(ctx, turn.responseId, turn.proposals);
  return {
    thread_id: turn.threadId,
    packet_id: turn.packetId,
    transmission_id: turn.transmissionId,
    attempt_id: turn.attemptId,
    response_id: turn.responseId,
    assistant_text: turn.assistantText,
    replayed,
    breakpoint,
    thread_memento_version: turn.mementoVersion ?? null,
    procedure,
    ui_hints: { has_proposals: previews.length > 0, proposal_previews: previews },
  };
}

/**
 * A stored turn for this request_id, or CONFLICT when the key was used for another request. The
 * breakpoint verdict comes from the turn's trace; the memento version is the thread's current one.
 */
export async function replay(
  ctx: TServiceContext,
  stored: TStoredTurn,
  input: TChatRespondRequest,
  hash: string,
): Promise<TChatRespondResponse> {
  if (stored.requestHash !== hash) {
    throw new DomainError("CONFLICT", `request_id "${input.request_id}" was already used for a different request`, {
      field: "request_id",
    });
  }
  const { deps } = ctx;
  const events = await deps.repos.traces.forTransmission(stored.transmissionId);
  const meta = (events.find((e) => e.phase === "breakpoint")?.metadata ?? {}) as Record<string, unknown>;
  const decision = meta.decision === "must" || meta.decision === "skip" ? meta.decision : "should";
  const memento = await deps.repos.mementos.get(stored.threadId);
  return toResponse(
    ctx,
    { ...stored, mementoVersion: memento?.version ?? null },
    true,
    { decision, peak_guardrail_active: meta.peakGuardrailActive === true, signal_kinds: [] },
    await threadProcedureView(deps, stored.threadId),
  );
}
