import type { TOutputMeta } from "@solserver/contracts";
import type { TRepetitionHit } from "@solserver/db";
import { routeTurn, type TRoute } from "@solserver/engine";
import type { TServiceDeps } from "../deps";
import type { createTraceLog } from "../trace-log";

// The selector step of a turn (seed 001 §7.1): the router (packages/engine, router/route.ts)
// picks router_domain and modeLabel from the message, trained on the routing config's examples and
// those people filed since (routing/router.ts), with the thread's previous domain and its answers'
// domainHints for a turn it cannot route. It is stored as a DeliveryAttempt with step "selector"
// and traced; afterwards an answer whose domainHints disagree with the route is counted, so that
// repeated mismatches surface as a routing suggestion (seed 001 §5, "routing rules"). The hints
// never move a thread out of a strict domain.

const SELECTOR_MODEL = "router-v2";
/** How many of the thread's recent answers weigh in with their domainHints. */
const HINT_HISTORY = 5;

export type TSelection = {
  route: TRoute;
  /** The selector's DeliveryAttempt. */
  attempt: { model: string; latencyMs: number; outcome: "ok"; reason: null };
};

const pct = (p: number) => p.toFixed(2);

/** "Routed to ops (classifier, confidence 0.91)", "Unrouted (confidence 0.31; ops 0.22 next): kept rv_service". */
function summary(route: TRoute, previous: string | null): string {
  const strict = route.strict ? ", strict" : "";
  const held = route.hints_overruled === null ? "" : `; domainHints for ${route.hints_overruled} not followed`;
  switch (route.reason) {
    case "procedure":
      return `Routed to ${route.domain} (procedure thread)${strict}`;
    case "rule":
      return `Routed to ${route.domain} (rule "${route.rule}")${strict}`;
    case "classifier":
      return `Routed to ${route.domain} (classifier, confidence ${pct(route.confidence)})${strict}`;
    default: {
      const [best, next] = route.ranking;
      const guess = best ? `; best ${best.domain}${next ? `, ${next.domain} ${pct(next.p)} next` : ""}` : "";
      const where =
        route.reason === "history"
          ? `the domain the answers name, ${route.domain}`
          : route.reason === "previous"
            ? `the thread's domain, ${previous}`
            : `the fallback, ${route.domain}`;
      return `Unrouted (confidence ${pct(route.confidence)}${guess}): ${where}${strict}${held}`;
    }
  }
}

export async function selectRoute(
  deps: TServiceDeps,
  trace: ReturnType<typeof createTraceLog>,
  turn: { threadId: string; existing: boolean; message: string; procedureSystem: string | null },
): Promise<TSelection> {
  const started = performance.now();
  const history = turn.existing
    ? await deps.repos.turns.routingHistory(turn.threadId, HINT_HISTORY)
    : { previousDomain: null, hintHistory: [] };
  const router = await deps.routing.current();
  const route = routeTurn(router, {
    message: turn.message,
    previousDomain: history.previousDomain,
    hintHistory: history.hintHistory,
    procedureSystem: turn.procedureSystem,
    vector: router.model.meaning && turn.procedureSystem === null ? await messageVector(deps, turn.message) : null,
  });
  const latencyMs = Math.round((performance.now() - started) * 10) / 10;
  trace.add("selector", summary(route, history.previousDomain), {
    router_domain: route.domain,
    mode_label: route.mode_label,
    strict: route.strict,
    scope: route.scope,
    reason: route.reason,
    confidence: route.confidence,
    min_confidence: router.config.min_confidence,
    rule: route.rule,
    previous_domain: history.previousDomain,
    hints_overruled: route.hints_overruled,
    ranking: route.ranking.map((r) => ({ domain: r.domain, p: Math.round(r.p * 1000) / 1000 })),
    meaning: router.model.meaning,
    duration_ms: latencyMs,
  });
  return { route, attempt: { model: SELECTOR_MODEL, latencyMs: Math.round(latencyMs), outcome: "ok", reason: null } };
}

/** The message's sentence vector (shared with retrieval's), or null when the model is not at hand. */
async function messageVector(deps: TServiceDeps, message: string): Promise<Float32Array | null> {
  const semantic = await deps.semantic?.get();
  if (!semantic) return null;
  try {
    return await semantic.search.embed(message);
  } catch (error) {
    console.warn(`routing: the message's vector failed, words only: ${(error as Error).message}`);
    return null;
  }
}

const EXCERPT = 80;
const FIRST = '(first: "';

/** The first message of a domain_mismatch counter, from its label (as domainMismatch writes it). */
export function mismatchExcerpt(label: string): string | null {
  const at = label.lastIndexOf(FIRST);
  return at < 0 || !label.endsWith('")') ? null : label.slice(at + FIRST.length, -2);
}

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
    label: `routed to "${route.domain}", answered as "${key}" ${FIRST}${excerpt}")`,
  };
}
