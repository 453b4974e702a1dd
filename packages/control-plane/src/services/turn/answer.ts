import type { TOutputEnvelope } from "@solserver/contracts";
import type { TModelAttempt, TModelOutput } from "../../model/provider";
import type { TServiceContext } from "../context";
import type { TAdmitted } from "./admit";
import { createAttemptGate, type TAttemptGate } from "./attempt-gate";
import { createClaimJudge, type TClaimCheck, traceClaims } from "./claims";
import type { TGathered } from "./gather";
import { callModel, type TTurnParty } from "./model-call";
import type { TPlan } from "./plan";
import { createStreamGuard, type TStreamEvent, type TStreamGuard } from "./stream-guard";
import { since } from "./timing";

// Step 4, answer: the model, every attempt judged by the output gate (seed 002: PII and the output
// contract block) and then by the claim check (seed 001 §4: strict domains refuse what is not
// cited). A streamed turn shows the text as it is written, through the PII hold-back guard, but
// not in a strict domain: there the claim check may still refuse the whole answer, and a refused
// answer's words must never reach a screen, so the answer arrives whole, in the final event.

/** The thread's closure signals the model is told about (seed 000). */
const CLOSURE_SIGNALS = new Set(["decision_made", "open_loop_resolved", "answer_provided", "scope_changed"]);

export type TAnswer = {
  readonly envelope: TOutputEnvelope;
  readonly output: TModelOutput;
  readonly attempts: readonly TModelAttempt[];
  readonly latencyMs: number;
  /** The delivered attempt's n. */
  readonly deliveredN: number | undefined;
  /** The delivered attempt's claim check. */
  readonly claimCheck: TClaimCheck | null;
  /** Every judged attempt's gate decision (stored with the turn). */
  readonly gate: TAttemptGate;
  readonly party: TTurnParty;
  /** What the client saw while the model wrote (null: not streamed). */
  readonly guard: TStreamGuard | null;
};

export async function answer(
  { deps, caller }: TServiceContext,
  turn: TAdmitted,
  plan: TPlan,
  gathered: TGathered,
  stream?: { send: (event: TStreamEvent) => void },
): Promise<TAnswer> {
  const { input, trace } = turn;
  const { route } = plan.selection;
  const procedure = plan.procedure.kind === "none" ? null : plan.procedure.model;
  const started = performance.now();
  const gate = createAttemptGate(deps.gate, gathered.previous, { message: input.message, now: deps.now() });
  const party = { actorId: caller.userId, threadId: turn.threadId };
  const guard = stream && !route.strict ? createStreamGuard(stream.send, deps.gate.pii) : null;
  // The procedure's own directive wording may be repeated without a claim (claim-statements.ts).
  const claims = createClaimJudge(deps, route, gathered.injected, procedure);
  const answered = await callModel(
    deps,
    trace,
    {
      message: input.message,
      history: gathered.history.map(({ role, content }) => ({ role, content })),
      cfbs: gathered.ranked.map((r) => r.cfb),
      pendingProposals: [...gathered.pending],
      closureSignals: plan.baseline.memento.signals.items
        .filter((i) => CLOSURE_SIGNALS.has(i.kind))
        .map((i) => ({ kind: i.kind, summary: i.summary })),
      summary: plan.mayUpdateSummary ? plan.baseline.memento.shape : null,
      procedure,
    },
    gate,
    party,
    { ...(guard ? { onText: guard.onText } : {}), judge: claims.judge },
  ).catch((error: unknown) => {
    // Every attempt refused: what was shown of them is not an answer (the stream's error follows).
    guard?.settle(null, "this attempt was not delivered");
    throw error;
  });
  const deliveredN = answered.attempts.at(-1)?.n;
  guard?.settle(deliveredN ?? null, "this attempt was not delivered");
  trace.add("model", `Model ${deps.model.name} answered`, {
    latency_ms: answered.latencyMs,
    attempts: answered.attempts.length,
    tokens_in: answered.output.tokensIn,
    tokens_out: answered.output.tokensOut,
    duration_ms: since(started),
  });
  traceClaims(trace, claims.checks);
  return {
    ...answered,
    deliveredN,
    claimCheck: (deliveredN === undefined ? undefined : claims.checks.get(deliveredN)) ?? null,
    gate,
    party,
    guard,
  };
}
