import { z } from "zod";
import { ZAttemptId, ZPacketId, ZRequestId, ZResponseId, ZThreadId, ZTransmissionId } from "./ids";
import { ThreadMementoSignalKind, ZThreadMemento } from "./memento";
import { ZProcedureChoice, ZProcedureView } from "./procedure";
import { ZProposalPreview } from "./proposals";
import { ZVisibleText } from "./text";

export const MAX_MESSAGE_CHARS = 8000;

/** POST /chat/respond and chat.respond (seed 001 §3.2). */
export const ZChatRespondRequest = z
  .object({
    // Omitted: the turn starts a new thread. Given but unknown: the thread is created with it.
    thread_id: ZThreadId.optional(),
    // Idempotency key: a retried turn with the same key returns the stored response.
    request_id: ZRequestId,
    message: ZVisibleText(
      z
        .string({ error: "is required and must be a string" })
        .trim()
        .min(1, { error: "must not be empty" })
        .max(MAX_MESSAGE_CHARS, { error: `must be at most ${MAX_MESSAGE_CHARS} characters` }),
    ),
    // The client's thread memento v0.2 (seed 000 packet.context.thread_memento): when given it
    // is the turn's baseline (its signals drive the breakpoint decision); else the stored one.
    context: z.object({ thread_memento: ZThreadMemento.optional() }).strict().optional(),
    // Procedure mode (issue 9): a system id binds the thread to its diagnostic procedure, "auto"
    // detects it from this message, "none" (the default) keeps a plain chat. A thread already
    // bound keeps its procedure whatever later turns send.
    procedure: ZProcedureChoice.optional(),
  })
  .strict();
export type TChatRespondRequest = z.infer<typeof ZChatRespondRequest>;

export const ZChatRespondResponse = z.object({
  thread_id: ZThreadId,
  packet_id: ZPacketId,
  transmission_id: ZTransmissionId,
  attempt_id: ZAttemptId,
  response_id: ZResponseId,
  assistant_text: z.string(),
  // True when this answer was replayed for a retried request_id rather than computed now.
  replayed: z.boolean(),
  /** The breakpoint engine's verdict on this turn (seed 000). */
  breakpoint: z.object({
    decision: z.enum(["must", "should", "skip"]),
    peak_guardrail_active: z.boolean(),
    signal_kinds: z.array(ThreadMementoSignalKind),
  }),
  /** The thread memento's version after the turn: the ETag for memento writes. */
  thread_memento_version: z.number().int().positive().nullable(),
  /** The thread's diagnosis after this turn; null for a thread not in procedure mode. */
  procedure: ZProcedureView.nullable(),
  ui_hints: z.object({
    has_proposals: z.boolean(),
    proposal_previews: z.array(ZProposalPreview),
  }),
});
export type TChatRespondResponse = z.infer<typeof ZChatRespondResponse>;
