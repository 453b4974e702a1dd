import { DomainError } from "@solserver/contracts";
import type { TStoredTurn, TTurnWrite } from "@solserver/db";
import type { TServiceContext } from "../context";
import type { TAdmitted } from "./admit";
import type { TAnswer } from "./answer";
import type { TGathered } from "./gather";
import type { TLearned } from "./learn";
import { storedOrEmpty } from "./memento";
import { gateRows } from "./model-call";
import type { TPlan } from "./plan";

// Step 6, store: the whole turn in one transaction (thread, messages, packet → transmission →
// attempts → response, meta, proposals with resolve's decisions, usage and repetitions, the gate
// decisions, the memento, the procedure state, the trace), or nothing.
//
// The memento write is conditional on the version read at the start. Another turn (or a memento
// PUT) may land on the thread while the model answers: then the turn is written once more, its
// memento changes applied to the memento as it is inside that transaction, its row locked
// (unless the client sent its own baseline, which is then written over it), so concurrent turns
// on one thread, in one process or several, wait for each other and all land. A concurrent retry of the same request_id from another process
// that stored first makes this one "duplicate" (the unique request_id decides; nothing of this
// turn is kept).

export async function store(
  { deps, caller }: TServiceContext,
  turn: TAdmitted,
  plan: TPlan,
  gathered: TGathered,
  answered: TAnswer,
  learned: TLearned,
): Promise<TStoredTurn | "duplicate"> {
  const { input, trace } = turn;
  const { route, attempt: selector } = plan.selection;
  trace.add("store", "Turn stored", { attempts: answered.attempts.length, proposals: learned.proposals.length });
  const write = (memento: TTurnWrite["memento"]): TTurnWrite => ({
    callerId: caller.userId,
    ownerId: caller.userId,
    mayWriteAnyThread: caller.role === "jam",
    requestId: input.request_id,
    requestHash: turn.hash,
    threadId: turn.threadId,
    threadTitle: input.message.slice(0, 80),
    userMessageId: turn.userMessageId,
    message: input.message,
    historyMessageIds: gathered.history.map((m) => m.id),
    modeLabel: route.mode_label,
    routerDomain: route.domain,
    selector,
    claimCheck: answered.claimCheck,
    model: deps.model.name,
    tokensIn: answered.output.tokensIn,
    tokensOut: answered.output.tokensOut,
    latencyMs: answered.latencyMs,
    attempts: [...answered.attempts],
    assistantText: answered.envelope.assistant_text,
    meta: answered.envelope.meta,
    proposals: [...learned.proposals],
    usage: learned.usage,
    // Repetitions (seed 001 §5.2) are counted for turns that did the work, not for acks.
    repetitions: learned.repetitions
      ? { hits: [...learned.repetitions], thresholds: deps.repetitionThresholds }
      : undefined,
    memento,
    procedure: plan.procedure.kind === "engine" ? plan.procedure.write : null,
    gate: gateRows(answered.gate, answered.party, (n) => n === answered.deliveredN),
    trace: trace.events,
  });
  try {
    return await deps.repos.turns.record(
      write({ expectedVersion: plan.baseline.storedVersion, payload: learned.mementoFrom(plan.baseline.memento) }),
    );
  } catch (error) {
    if (!isMementoConflict(error)) throw error;
    const fromRequest = input.context?.thread_memento;
    const rebase = (stored: unknown | null) =>
      learned.mementoFrom(fromRequest ?? storedOrEmpty(stored, deps.now().toISOString()));
    return deps.repos.turns.record(write({ rebase }));
  }
}

/** True for the CONFLICT a stale memento version raises (field "version"). */
function isMementoConflict(error: unknown): boolean {
  return error instanceof DomainError && error.code === "CONFLICT" && error.field === "version";
}
