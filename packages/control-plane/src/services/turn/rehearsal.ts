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

// A turn rehearsed at start-up, before /readyz says ready (issue 38: the first turn after ready
// cost four times the tenth). Everything a turn does for the first time in a process (V8 compiling
// the code of the breakpoint engine, router, retrieval, the output gate and resolve; the schemas'
// first parse; the database preparing each statement) is paid here instead of by the first user.
// It plans, gathers, answers and learns like a turn on a new thread, and stores nothing: the
// answer comes from the offline model (a configured model is never called: it costs money and
// may be slow), and the turn is not admitted (no rate-limit charge) nor stored.

const MESSAGES = [
  "We decided to rotate the API keys every month.",
  "How do I reset the breaker if the water pump won't run?",
];

/** Rehearses a turn for each of a few messages; nothing is written. */
export async function rehearseTurns(deps: TServiceDeps): Promise<void> {
  const ctx: TServiceContext = {
    deps: { ...deps, model: createOfflineModel() },
    caller: { kind: "user", userId: "warm-up", email: "warm-up@localhost", role: "user", via: "cli" },
  };
  for (const message of MESSAGES) {
    const input: TChatRespondRequest = { request_id: `warm-up-${randomUUID()}`, message };
    const turn: TAdmitted = {
      input,
      hash: requestHash(input),
      threadId: deps.newThreadId(),
      existing: false,
      ownerId: null,
      userMessageId: randomUUID(),
      trace: createTraceLog(deps.now),
    };
    const planned = await plan(ctx, turn);
    const gathered = await gather(ctx, turn, planned);
    const answered = await answer(ctx, turn, planned, gathered);
    await learn(ctx, turn, planned, gathered, answered);
  }
}
