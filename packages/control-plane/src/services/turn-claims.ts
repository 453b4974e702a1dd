import type { TOutputMeta } from "@solserver/contracts";
import type { TModelAttempt, TModelOutput } from "../model/provider";
import type { TServiceDeps } from "./deps";
import type { createTraceLog } from "./trace-log";

// Claim-map enforcement (seed 001 §4: "the server can require that every claim has either
// cfb_ids or unknown_id in strict domains"). Mechanical, per attempt, after the output gate:
//   CLAIM_MAP_MISSING        the answer has no claim_map at all
//   CLAIM_UNSUPPORTED        a claim cites neither a CFB nor an unknown
//   CLAIM_CFB_UNKNOWN        a claim cites a CFB id that does not exist
//   CLAIM_CFB_NOT_INJECTED   a claim cites a CFB that exists but was not given to the model this turn
//   CLAIM_UNKNOWN_UNDEFINED  a claim points at an unknown id the answer does not define
// In a strict domain any finding refuses the attempt (the next one is tried; if none passes the
// turn fails with the findings); elsewhere the findings are kept as warnings with the answer.

export const CLAIM_CODES = [
  "CLAIM_MAP_MISSING",
  "CLAIM_UNSUPPORTED",
  "CLAIM_CFB_UNKNOWN",
  "CLAIM_CFB_NOT_INJECTED",
  "CLAIM_UNKNOWN_UNDEFINED",
] as const;
export type TClaimCode = (typeof CLAIM_CODES)[number];
export type TClaimFinding = { code: TClaimCode; claim_id: string | null; detail: string };
export type TClaimCheck = { strict: boolean; domain: string; findings: TClaimFinding[] };

const FINDINGS_IN_REASON = 3;

/** Every CFB id a claim map cites. */
export function citedCfbIds(meta: TOutputMeta): string[] {
  return [...new Set((meta.claim_map ?? []).flatMap((c) => c.support.cfb_ids ?? []))];
}

/** The findings of one answer's claim map, in claim order (pure). */
export function checkClaims(
  meta: TOutputMeta,
  known: { injected: { has(id: string): boolean }; existing: { has(id: string): boolean } },
): TClaimFinding[] {
  if (meta.claim_map === undefined)
    return [{ code: "CLAIM_MAP_MISSING", claim_id: null, detail: "the answer has no claim_map" }];
  const unknowns = new Set(meta.unknowns.map((u) => u.id));
  const findings: TClaimFinding[] = [];
  for (const claim of meta.claim_map) {
    const cfbIds = claim.support.cfb_ids ?? [];
    const unknownId = claim.support.unknown_id;
    const at = (code: TClaimCode, detail: string) => findings.push({ code, claim_id: claim.claim_id, detail });
    if (cfbIds.length === 0 && !unknownId) at("CLAIM_UNSUPPORTED", `"${claim.text}" cites no CFB and no unknown`);
    for (const id of cfbIds) {
      if (!known.existing.has(id)) at("CLAIM_CFB_UNKNOWN", `cites ${id}, which does not exist`);
      else if (!known.injected.has(id)) at("CLAIM_CFB_NOT_INJECTED", `cites ${id}, which was not given to the model`);
    }
    if (unknownId && !unknowns.has(unknownId))
      at("CLAIM_UNKNOWN_UNDEFINED", `points at unknown ${unknownId}, which the answer does not define`);
  }
  return findings;
}

/** The claim check of a turn: judges attempts (async: cited ids are looked up) and remembers findings by n. */
export function createClaimJudge(
  deps: TServiceDeps,
  route: { domain: string; strict: boolean },
  injected: ReadonlySet<string>,
) {
  const checks = new Map<number, TClaimCheck>();
  return {
    checks,
    async judge({ output, attempt }: { output: TModelOutput; attempt: TModelAttempt }) {
      const meta = (output.envelope as { meta?: TOutputMeta }).meta;
      if (meta === undefined) return { deliver: true as const };
      const existing = await deps.repos.cfbs.existingIds(citedCfbIds(meta));
      const findings = checkClaims(meta, { injected, existing });
      checks.set(attempt.n, { strict: route.strict, domain: route.domain, findings });
      if (!route.strict || findings.length === 0) return { deliver: true as const };
      // Codes and claim ids only: the reason ends up in the error a person sees, and the refused
      // answer's own words must not reach them (the details are in the "claims" trace event).
      const listed = findings
        .slice(0, FINDINGS_IN_REASON)
        .map((f) => `${f.code}${f.claim_id ? ` (${f.claim_id})` : ""}`)
        .join(", ");
      const more = findings.length > FINDINGS_IN_REASON ? ` (+${findings.length - FINDINGS_IN_REASON} more)` : "";
      return {
        deliver: false as const,
        reason: `claim map refused in strict domain ${route.domain}: ${listed}${more}`,
      };
    },
  };
}

/** One trace event per checked attempt (phase "claims"): refused in a strict domain, warnings elsewhere. */
export function traceClaims(trace: ReturnType<typeof createTraceLog>, checks: ReadonlyMap<number, TClaimCheck>): void {
  for (const [n, check] of checks) {
    const count = check.findings.length;
    const verdict =
      count === 0 ? "supported" : check.strict ? `${count} finding(s): refused (strict)` : `${count} warning(s)`;
    trace.add(
      "claims",
      `Claim map of attempt ${n}: ${verdict}`,
      { n, strict: check.strict, domain: check.domain, findings: check.findings },
      count > 0 && check.strict ? "failed" : "completed",
    );
  }
}
