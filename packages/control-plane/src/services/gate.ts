import {
  DomainError,
  type TGateDecision,
  type TGateEvaluationListQuery,
  type TGateEvaluationView,
  type ZGateEvaluateRequest,
} from "@solserver/contracts";
import { evaluate, GateInputError } from "@solserver/gate";
import type { z } from "zod";
import type { TServiceContext } from "./context";
import { chargeRead } from "./rate-limits";

/**
 * gate.evaluate: the `breakpoint` CLI's comparison as a service (seed 002), for pipelines that
 * would rather call the API. The decision is stored and listed in the dashboard under the caller.
 */
export async function evaluateGate(
  { deps, caller }: TServiceContext,
  request: z.output<typeof ZGateEvaluateRequest>,
): Promise<{ evaluation_id: string; decision: TGateDecision }> {
  // Each call computes a comparison and stores a decision: it counts against the account's read
  // budget (SOLSERVER_READS_PER_MINUTE) as a query does, so a script cannot call it without bound.
  await chargeRead(deps, caller.userId);
  let decision: TGateDecision;
  try {
    decision = evaluate({
      baseline: request.baseline,
      candidate: request.candidate,
      mode: request.mode,
      strict: request.strict,
      ...(request.config ? { config: request.config } : {}),
      ...(request.preset ? { preset: request.preset } : {}),
      // Waivers expire against the server's clock; the gate itself reads none.
      now: new Date(),
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
  { deps, caller }: TServiceContext,
  q: TGateEvaluationListQuery,
): Promise<{ items: TGateEvaluationView[]; next_cursor: string | null }> {
  return deps.repos.gate.list({
    actorId: caller.role === "jam" ? undefined : caller.userId,
    status: q.status,
    source: q.source,
    cursor: q.cursor,
    limit: q.limit,
  });
}
