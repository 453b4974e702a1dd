// Waivers: a team accepts a known finding for a while ("the new model costs 30% more until the
// cache lands"). While a waiver is active, the reason codes it names do not count: the policy is
// judged on its other findings, and the decision lists the waiver as applied with the codes it
// covered. After `expires_at` it stops applying and the decision lists it as expired, so the
// finding comes back loudly instead of being forgotten. Pure: the evaluation time is an input.

import {
  type TGateStatus,
  type TGateWaiver,
  type TPolicyResult,
  type TWaiverOutcome,
  ZWaiverExpiry,
} from "@solserver/contracts";
import { GATE_CODES } from "./codes";
import { GateInputError } from "./errors";

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(GATE_CODES));

/** Every waiver names codes the gate can emit: a typo would otherwise waive nothing, silently. */
export function checkWaiverCodes(waivers: readonly TGateWaiver[]): void {
  waivers.forEach((waiver, i) => {
    waiver.codes.forEach((code, j) => {
      if (!KNOWN_CODES.has(code)) {
        throw new GateInputError(
          `config.waivers.${i}.codes.${j}`,
          `unknown reason code ${JSON.stringify(code)} (known: ${[...KNOWN_CODES].join(", ")})`,
        );
      }
    });
  });
}

/** The last millisecond a waiver applies: a date-only expiry runs to the end of that day, UTC. */
export function waiverEnd(expiresAt: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(expiresAt)) return Date.parse(`${expiresAt}T23:59:59.999Z`);
  return Date.parse(expiresAt);
}

/**
 * An evaluation time from a Date or an ISO-8601 string (a date-time with a zone, or a date, read
 * as its start in UTC). Date.parse alone would accept "Nov 27" and local times.
 */
export function evaluationTime(now: Date | string, field = "now"): number {
  let ms = Number.NaN;
  if (now instanceof Date) ms = now.getTime();
  else if (typeof now === "string" && ZWaiverExpiry.safeParse(now).success) ms = Date.parse(now);
  if (Number.isNaN(ms)) {
    throw new GateInputError(field, "must be an ISO-8601 time with a zone (2026-11-27T12:00:00Z) or a date");
  }
  return ms;
}

function severityOf(code: string): TGateStatus {
  return code.includes("_BLOCK_") ? "BLOCK" : "WARN";
}

function milder(a: TGateStatus, b: TGateStatus): TGateStatus {
  const rank = { ALLOW: 0, WARN: 1, BLOCK: 2 } as const;
  return rank[a] <= rank[b] ? a : b;
}

function outcome(waiver: TGateWaiver, matched: string[]): TWaiverOutcome {
  return {
    codes: waiver.codes,
    reason: waiver.reason,
    owner: waiver.owner,
    expires_at: waiver.expires_at,
    ticket: waiver.ticket ?? null,
    matched,
  };
}

/** A policy result without the waived codes (and, where reasons pair with codes, their reasons). */
function waive(result: TPolicyResult, waived: ReadonlySet<string>): TPolicyResult {
  const hit = result.codes.filter((c) => waived.has(c));
  if (hit.length === 0) return result;
  const kept = result.codes.filter((c) => !waived.has(c));
  const aligned = result.reasons.length === result.codes.length;
  const reasons =
    kept.length === 0
      ? []
      : aligned
        ? result.reasons.filter((_, i) => !waived.has(result.codes[i] ?? ""))
        : result.reasons;
  // What remains can only make the verdict milder, never harsher (a capped BLOCK stays a WARN).
  const remaining: TGateStatus =
    kept.length === 0 ? "ALLOW" : kept.some((c) => severityOf(c) === "BLOCK") ? "BLOCK" : "WARN";
  return {
    ...result,
    status: milder(result.status, remaining),
    reasons,
    codes: kept,
    details: { ...result.details, waived: hit },
  };
}

export function applyWaivers(
  results: readonly TPolicyResult[],
  waivers: readonly TGateWaiver[],
  now: number,
): { results: TPolicyResult[]; applied: TWaiverOutcome[]; expired: TWaiverOutcome[] } {
  const found = new Set(results.flatMap((r) => r.codes));
  const applied: TWaiverOutcome[] = [];
  const expired: TWaiverOutcome[] = [];
  const waived = new Set<string>();
  for (const waiver of waivers) {
    const matched = waiver.codes.filter((c) => found.has(c));
    if (now > waiverEnd(waiver.expires_at)) {
      expired.push(outcome(waiver, matched));
      continue;
    }
    if (matched.length === 0) continue;
    applied.push(outcome(waiver, matched));
    for (const code of matched) waived.add(code);
  }
  return { results: results.map((r) => waive(r, waived)), applied, expired };
}
