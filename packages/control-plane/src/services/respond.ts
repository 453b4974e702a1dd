import type { TChatRespondRequest, TChatRespondResponse } from "@solserver/contracts";
import { plannedView } from "../procedures/procedure-turn";
import { type TTurnSpans, turnSpans } from "../telemetry/turn-spans";
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
    const spans = turnSpans(ctx.deps.telemetry, ctx.traceparent);
    try {
      const result = await steps(ctx, input, spans, stream);
      spans.end(result.ids);
      return result.response;
    } catch (error) {
      spans.end({}, error);
      throw error;
    }
  });
}

/**
 * Lets the event loop run between two steps of a turn. A step's database work is synchronous on
 * SQLite, and without a break the steps of concurrent turns run back to back as one long task:
 * at 32 clients and 100,000 CFBs that held health probes and new requests for 1–2 s.
 */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The steps, each in its span when turns are exported (telemetry/turn-spans.ts). */
async function steps(
  ctx: TServiceContext,
  input: TChatRespondRequest,
  spans: TTurnSpans,
  stream?: { send: (event: TStreamEvent) => void },
): Promise<{ response: TChatRespondResponse; ids: Parameters<TTurnSpans["end"]>[0] }> {
  const admitted = await spans.step("admit", () => admit(ctx, input));
  if ("replay" in admitted) return { response: admitted.replay, ids: { thread: admitted.replay.thread_id } };
  const turn = admitted.admitted;
  await breathe();
  const planned = await spans.step("plan", () => plan(ctx, turn));
  await breathe();
  const gathered = await spans.step("gather", () => gather(ctx, turn, planned));
  await breathe();
  const answered = await spans.step("answer", () => answer(ctx, turn, planned, gathered, stream));
  spans.attempts(ctx.deps.model.name, answered.attempts, answered.deliveredN);
  await breathe();
  const learned = await spans.step("learn", () => learn(ctx, turn, planned, gathered, answered));
  await breathe();
  const stored = await spans.step("store", () => store(ctx, turn, planned, gathered, answered, learned));
  if (stored === "duplicate") {
    // Another process stored the same request first: answer with its result, and take back
    // what this one showed while it ran.
    answered.guard?.settle(null, "the same request was answered by another turn");
    const winner = await ctx.deps.repos.turns.findByRequestId(ctx.caller.userId, input.request_id);
    if (!winner) throw new Error("request_id conflict without a stored turn");
    return { response: await replay(ctx, winner, input, turn.hash), ids: { thread: turn.threadId } };
  }
  const breakpoint = {
    decision: planned.decision,
    peak_guardrail_active: planned.peakGuardrailActive,
    signal_kinds: planned.signalKinds,
  };
  const response = await toResponse(
    ctx,
    stored,
    false,
    breakpoint,
    plannedView(ctx.deps, planned.procedure, stored.procedureVersion),
  );
  return {
    response,
    ids: {
      thread: stored.threadId,
      packet: stored.packetId,
      transmission: stored.transmissionId,
      attempt: stored.attemptId,
      response: stored.responseId,
    },
  };
}
