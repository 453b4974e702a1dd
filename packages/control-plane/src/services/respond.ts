import type { TChatRespondRequest, TChatRespondResponse } from "@solserver/contracts";
import { plannedView } from "../procedures/procedure-turn";
import type { TServiceContext } from "./context";
import { admit, oncePerRequest } from "./turn/admit";
import { answer } from "./turn/answer";
import { gather } from "./turn/gather";
import { learn } from "./turn/learn";
import { plan } from "./turn/plan";
import { replay, toResponse } from "./turn/response";
import { store } from "./turn/store";
import type { TStreamEvent } from "./turn/stream-guard";

/**
 * One chat turn, in the order seed 000's orchestrator gives and nowhere else. Each step is a file
 * of ./turn/ that adds its own trace events and returns a record the later steps read:
 *
 *   admit   replay a stored request_id; the caller may see the thread; the procedure choice; rate limit
 *   plan    baseline memento, breakpoint decision, peak guardrail, context engine, route
 *   gather  history, the previous answer (the gate's baseline), ranked CFBs
 *   answer  the model, each attempt judged by the output gate and the claim check
 *   learn   proposals and resolve, usage and repetitions, domain mismatch, the memento
 *   store   everything in one transaction
 *   respond the answer, as a replay of it will look
 *
 * `stream` receives the answer's text while the model writes it (turn/stream-guard.ts).
 */
export function respondToTurn(
  ctx: TServiceContext,
  input: TChatRespondRequest,
  stream?: { send: (event: TStreamEvent) => void },
): Promise<TChatRespondResponse> {
  return oncePerRequest(ctx, input.request_id, async () => {
    const admitted = await admit(ctx, input);
    if ("replay" in admitted) return admitted.replay;
    const turn = admitted.admitted;
    const planned = await plan(ctx, turn);
    const gathered = await gather(ctx, turn, planned);
    const answered = await answer(ctx, turn, planned, gathered, stream);
    const learned = await learn(ctx, turn, planned, gathered, answered);
    const stored = await store(ctx, turn, planned, gathered, answered, learned);
    if (stored === "duplicate") {
      // Another process stored the same request first: answer with its result, and take back
      // what this one showed while it ran.
      answered.guard?.settle(null, "the same request was answered by another turn");
      const winner = await ctx.deps.repos.turns.findByRequestId(ctx.caller.userId, input.request_id);
      if (!winner) throw new Error("request_id conflict without a stored turn");
      return replay(ctx, winner, input, turn.hash);
    }
    const breakpoint = {
      decision: planned.decision,
      peak_guardrail_active: planned.peakGuardrailActive,
      signal_kinds: planned.signalKinds,
    };
    return toResponse(
      ctx,
      stored,
      false,
      breakpoint,
      plannedView(ctx.deps, planned.procedure, stored.procedureVersion),
    );
  });
}
