import type { TOutputMeta } from "@solserver/contracts";
import type { TRepetitionHit } from "@solserver/db";
import { routeTurn, type TRoute } from "@solserver/engine";
import type { TServiceDeps } from "../deps";
import type { createTraceLog } from "../trace-log";

// The selector step of a turn (seed 001 §7.1): the deterministic router (packages/engine,
// router/route.ts) picks router_domain and modeLabel from the message, the thread's previous
// routing and its answers' domainHints. It is stored as a DeliveryAttempt with step "selector"
// and traced; afterwards an answer whose domainHints disagree with the route is counted, so that
// repeated mismatches surface as a routing-rule suggestion (seed 001 §5, "routing rules"). The
// hints never move a turn out of a strict route (the router does not count them then), so in a
// strict domain every answer that names another domain is counted, turn after turn.

export const SELECTOR_MODEL = "router-v1";
/** How many of the thread's recent answers weigh in with their domainHints. */
const HINT_HISTORY = 5;

export type TSelection = {
  route: TRoute;
  /** The selector's DeliveryAttempt. */
  attempt: { model: string; latencyMs: number; outcome: "ok"; reason: null };
};

export async function selectRoute(
  deps: TServiceDeps,
  trace: ReturnType<typeof createTraceLog>,
  turn: { threadId: string; existing: boolean; message: string; procedureSystem: string | null },
): Promise<TSelection> {
  const started = performance.now();
  const history = turn.existing
    ? await deps.repos.turns.routingHistory(turn.threadId, HINT_HISTORY)
    : { previousDomain: null, hintHistory: [] };
  const route = routeTurn(deps.routing, {
    message: turn.message,
    previousDomain: history.previousDomain,
    hintHistory: history.hintHistory,
    procedureSystem: turn.procedureSystem,
  });
  const latencyMs = Math.round((performance.now() - started) * 10) / 10;
  // A strict route holds against the model's domainHints (docs/routing.md): say so when it did.
  const held = route.hints_overruled === null ? "" : `; domainHints for ${route.hints_overruled} not followed`;
  trace.add("selector", `Routed to ${route.domain} (${route.reason})${route.strict ? ", strict" : ""}${held}`, {
    router_domain: route.domain,
    mode_label: route.mode_label,
    strict: route.strict,
    scope: route.scope,
    reason: route.reason,
    previous_domain: history.previousDomain,
    hints_overruled: route.hints_overruled,
    scores: route.scores,
    duration_ms: latencyMs,
  });
  return { route, attempt: { model: SELECTOR_MODEL, latencyMs: Math.round(latencyMs), outcome: "ok", reason: null } };
}

const EXCERPT = 80;

/**
 * The answer's domainHints against the route: a mismatch when the model names domains (other
 * than "general") and none of them is the routed one. Counted per (routed domain, hinted domains),
 * once per turn that disagrees.
 */
export function domainMismatch(route: TRoute, meta: TOutputMeta, message: string): TRepetitionHit | null {
  const hinted = [...new Set(meta.domainHints.filter((h) => h !== "general"))].sort();
  if (hinted.length === 0 || hinted.includes(route.domain)) return null;
  const key = hinted.join("+");
  const excerpt = message.replace(/\s+/g, " ").trim().slice(0, EXCERPT);
  return {
    kind: "domain_mismatch",
    routerDomain: route.domain,
    key,
    label: `routed to "${route.domain}", answered as "${key}" (first: "${excerpt}")`,
  };
}
