import { randomUUID } from "node:crypto";
import type { TChatRespondRequest, TChatRespondResponse } from "@solserver/contracts";
import { checkProcedureChoice } from "../../procedures/procedure-turn";
import { assertCanSeeThread } from "../access";
import type { TServiceContext } from "../context";
import type { TServiceDeps } from "../deps";
import { chargeChatTurn } from "../rate-limits";
import { createTraceLog, type TTraceLog } from "../trace-log";
import { replay, requestHash } from "./response";

// Step 1, admit: whether this turn runs at all, and on which thread. A request_id already stored
// replays its answer; the caller must be able to see the thread; the procedure choice must name a
// catalog system; and only turns that get this far count against the chat rate limit.

export type TAdmitted = {
  readonly input: TChatRespondRequest;
  /** The request's fingerprint: the same request_id with another body is CONFLICT. */
  readonly hash: string;
  /** The turn's thread: the one the request names, or a new id. */
  readonly threadId: string;
  /** Whether the request named a thread (its history, memento and route then count). */
  readonly existing: boolean;
  /**
   * The thread's owner (the caller for a thread this turn creates; null for one from before
   * accounts): CFBs private to them are retrieved and resolved against in this thread, nobody
   * else's (issue 19), whoever sends the turn.
   */
  readonly ownerId: string | null;
  readonly userMessageId: string;
  /** The turn's trace; every step adds its own events, stored with the turn. */
  readonly trace: TTraceLog;
};

export async function admit(
  ctx: TServiceContext,
  input: TChatRespondRequest,
): Promise<{ replay: TChatRespondResponse } | { admitted: TAdmitted }> {
  const { deps, caller } = ctx;
  const hash = requestHash(input);
  // Idempotency keys belong to the caller: another account's "1" is a different request.
  const stored = await deps.repos.turns.findByRequestId(caller.userId, input.request_id);
  if (stored) return { replay: await replay(ctx, stored, input, hash) };
  const thread = input.thread_id === undefined ? null : await deps.repos.turns.threadOwner(input.thread_id);
  if (thread) assertCanSeeThread(caller, thread.ownerId, `thread ${input.thread_id}`);
  checkProcedureChoice(deps.catalog, input.procedure);
  // Replays and refusals above are free; only turns that reach the model count against the budget.
  await chargeChatTurn(deps, caller.userId);

  const trace = createTraceLog(deps.now);
  const threadId = input.thread_id ?? deps.newThreadId();
  trace.add("packet", "Turn received", {
    thread_id: threadId,
    request_id: input.request_id,
    chars: input.message.length,
  });
  return {
    admitted: {
      input,
      hash,
      threadId,
      existing: input.thread_id !== undefined,
      ownerId: thread ? thread.ownerId : caller.userId,
      userMessageId: randomUUID(),
      trace,
    },
  };
}

/** Turns under way in this process, by caller and request_id (see oncePerRequest). */
const IN_FLIGHT = new WeakMap<TServiceDeps, Map<string, Promise<TChatRespondResponse>>>();

/**
 * Runs `turn` once per caller and request_id at a time: a resend while the first is still running
 * waits for it (and then replays it) instead of asking the model again. In this process; across
 * processes the store's unique request_id decides (store.ts).
 */
export async function oncePerRequest(
  { deps, caller }: TServiceContext,
  requestId: string,
  turn: () => Promise<TChatRespondResponse>,
): Promise<TChatRespondResponse> {
  let turns = IN_FLIGHT.get(deps);
  if (!turns) {
    turns = new Map();
    IN_FLIGHT.set(deps, turns);
  }
  const key = `${caller.userId}\u0000${requestId}`;
  for (let running = turns.get(key); running; running = turns.get(key)) await running.catch(() => undefined);
  // Registered before anything is awaited, so a resend arriving now finds it.
  const running = turn();
  turns.set(key, running);
  try {
    return await running;
  } finally {
    if (turns.get(key) === running) turns.delete(key);
  }
}
