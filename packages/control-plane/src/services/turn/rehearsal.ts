import { randomUUID } from "node:crypto";
import type { TChatRespondRequest } from "@solserver/contracts";
import { createOfflineModel } from "../../model/offline-model";
import type { TServiceContext } from "../context";
import type { TServiceDeps } from "../deps";
import { createTraceLog } from "../trace-log";
import type { TAdmitted } from "./admit";
import { answer } from "./answer";
import { gather } from "./gather";
import { learn } from "./learn";
import { plan } from "./plan";
import { requestHash } from "./response";
import { store } from "./store";

// A turn rehearsed at start-up, before /readyz says ready (issue 38: the first turn after ready
// cost four times the tenth). Everything a turn does for the first time in a process (V8 compiling
// the code of the breakpoint engine, router, retrieval, the output gate and resolve; the schemas'
// first parse; the database preparing each statement) is paid here instead of by the first user.
// It plans, gathers, answers, learns and stores like a turn on a new thread, and keeps nothing:
// the answer comes from the offline model (a configured model is never called: it costs money
// and may be slow), the turn is not admitted (no rate-limit charge), and its write is rolled back.

const MESSAGES = [
  "We decided to rotate the API keys every month.",
  "How do I reset the breaker if the water pump won't run?",
];

/** Rehearses a new thread's first turn and a follow-up; nothing is written. */
export async function rehearseTurns(deps: TServiceDeps): Promise<void> {
  const { turns, traces, gate } = deps.repos;
  // The writes a turn makes: its own rolled back; a refused answer's trace and gate decisions
  // (the offline answer refused by a strict deployment's gate) not written at all.
  const repos = {
    ...deps.repos,
    turns: {
      ...turns,
      record: async (write: Parameters<typeof turns.record>[0]) => {
        // (a thread of nobody's, as from before accounts: the warm-up's caller has no account)
        await turns.rehearse({ ...write, ownerId: null });
        return "duplicate" as const; // (nothing stored: nothing to read back)
      },
    },
    traces: { ...traces, write: async () => "rehearsal" },
    gate: { ...gate, record: async (rows: readonly unknown[]) => rows.map(() => "rehearsal") },
  };
  const ctx: TServiceContext = {
    deps: { ...deps, model: createOfflineModel(), repos },
    caller: { kind: "user", userId: "warm-up", email: "warm-up@localhost", role: "user", via: "cli" },
  };
  const threadId = deps.newThreadId();
  for (const [i, message] of MESSAGES.entries()) {
    const input: TChatRespondRequest = { request_id: `warm-up-${randomUUID()}`, message };
    // What admitting a turn reads (its charge against the rate limit would be a write).
    await deps.repos.turns.findByRequestId(ctx.caller.userId, input.request_id);
    await deps.repos.turns.threadOwner(threadId);
    const turn: TAdmitted = {
      input,
      hash: requestHash(input),
      threadId,
      // (the second turn reads its thread's history and previous answer, as a follow-up does)
      existing: i > 0,
      ownerId: null,
      userMessageId: randomUUID(),
      trace: createTraceLog(deps.now),
    };
    const planned = await plan(ctx, turn);
    const gathered = await gather(ctx, turn, planned);
    const answered = await answer(ctx, turn, planned, gathered);
    const learned = await learn(ctx, turn, planned, gathered, answered);
    await store(ctx, turn, planned, gathered, answered, learned);
  }
  // What the answer's page reads of a stored turn's proposals.
  await deps.repos.proposals.facts("warm-up");
}
