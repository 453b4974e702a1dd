import {
  DomainError,
  type TGateDecision,
  type TGateEvaluationView,
  ZGateEvaluateRequest,
  ZGateEvaluationListQuery,
} from "@solserver/contracts";
import { evaluate, GateInputError } from "@solserver/gate";
import type { z } from "zod";
import { parseInput } from "../parse";
import { requireSignedIn } from "./access";
import type { TActor, TServiceDeps } from "./deps";

/**
 * gate.evaluate: the `breakpoint` CLI's comparison as a service (seed 002), for pipelines that
 * would rather call the API. The decision is stored and listed in the dashboard under the caller.
 */
export async function evaluateGate(
  deps: TServiceDeps,
  actor: TActor,
  input: z.input<typeof ZGateEvaluateRequest>,
): Promise<{ evaluation_id: string; decision: TGateDecision }> {
  const caller = requireSignedIn(actor);
  const request = parseInput(ZGateEvaluateRequest, input);
  let decision: TGateDecision;
  try {
    decision = evaluate({
      baseline: request.baseline,
      candidate: request.candidate,
      mode: request.mode,
      strict: request.strict,
      ...(request.config ? { config: request.config } : {}),
    });
  } catch (error) {
    if (error instanceof GateInputError) throw new DomainError("BAD_INPUT", error.message, { field: error.field });
    throw error;
  }
  const [evaluationId] = await deps.repos.gate.record([
    {
      source: "api",
      actorId: caller.userId,
      label: request.label ?? null,
      threadId: null,
      transmissionId: null,
      attemptN: null,
      delivered: null,
      decision,
    },
  ]);
  return { evaluation_id: evaluationId as string, decision };
}

/** Recent gate evaluations: a Jam editor sees all, anyone else their own turns' and calls'. */
export async function listGateEvaluations(
  deps: TServiceDeps,
  actor: TActor,
  input: z.input<typeof ZGateEvaluationListQuery>,
): Promise<{ items: TGateEvaluationView[]; next_cursor: string | null }> {
  const caller = requireSignedIn(actor);
  const q = parseInput(ZGateEvaluationListQuery, input);
  return deps.repos.gate.list({
    actorId: caller.role === "jam" ? undefined : caller.userId,
    status: q.status,
    source: q.source,
    cursor: q.cursor,
    limit: q.limit,
  });
}
