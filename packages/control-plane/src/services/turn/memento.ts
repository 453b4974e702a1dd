import type { TThreadMemento } from "@solserver/contracts";
import { ZThreadMemento } from "@solserver/contracts";
import { emptyMemento, messageIntensity, nextShape, recordUserAffect, type TMementoShape } from "@solserver/engine";
import type { TServiceDeps } from "../deps";

export type TBaseline = {
  memento: TThreadMemento;
  /** The stored version this turn builds on (null: the thread has no memento yet). */
  storedVersion: number | null;
  source: "request" | "stored_latest" | "none";
};

/**
 * The turn's baseline memento (seed 000 orchestrator): the one the client sent, else the stored
 * latest, else an empty one. The stored version is read either way: the turn's write is
 * conditional on it.
 */
export async function resolveBaseline(
  deps: TServiceDeps,
  threadId: string | undefined,
  fromRequest: TThreadMemento | undefined,
): Promise<TBaseline> {
  const stored = threadId ? await deps.repos.mementos.get(threadId) : null;
  const storedVersion = stored?.version ?? null;
  if (fromRequest) return { memento: fromRequest, storedVersion, source: "request" };
  const parsed = stored ? ZThreadMemento.safeParse(stored.payload) : null;
  if (parsed?.success) return { memento: parsed.data, storedVersion, source: "stored_latest" };
  return { memento: storedOrEmpty(null, deps.now().toISOString()), storedVersion, source: "none" };
}

/** A stored memento payload as a memento, or an empty one when there is none (or it is not one). */
export function storedOrEmpty(payload: unknown | null, now: string): TThreadMemento {
  const parsed = payload === null ? null : ZThreadMemento.safeParse(payload);
  return parsed?.success ? parsed.data : ZThreadMemento.parse(emptyMemento(now));
}

/**
 * The memento after the turn: the summary shape updated only when the turn may (not skip, not
 * frozen by the peak guardrail) and the model proposed one; an affect reading added for the
 * user's message (never for the assistant's).
 */
export function mementoAfterTurn(args: {
  baseline: TThreadMemento;
  proposed: TMementoShape | null | undefined;
  mayUpdateSummary: boolean;
  userMessageId: string;
  userMessage: string;
  now: Date;
}): TThreadMemento {
  const shape = nextShape(args.baseline.shape, args.proposed ?? null, args.mayUpdateSummary);
  const withShape = { ...args.baseline, shape };
  const next = recordUserAffect(withShape, {
    messageId: args.userMessageId,
    intensity: messageIntensity(args.userMessage),
    at: args.now.toISOString(),
  });
  return ZThreadMemento.parse(next);
}
