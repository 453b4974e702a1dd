import type { TOutputMeta } from "@solserver/contracts";
import { procedureWording } from "../../model/procedure-wording";
import type { TModelAttempt, TModelOutput, TModelProcedure } from "../../model/provider";
import { type TProcedureWording, type TUncovered, uncoveredStatements } from "../claim-statements";
import type { TServiceDeps } from "../deps";
import type { createTraceLog } from "../trace-log";

// Claim-map enforcement (seed 001 §4: "the server can require that every claim has either
// cfb_ids or unknown_id in strict domains"). Mechanical, per attempt, after the output gate:
//   CLAIM_MAP_MISSING        the answer has no claim_map at all
//   CLAIM_UNSUPPORTED        a claim cites neither a CFB nor an unknown
//   CLAIM_CFB_UNKNOWN        a claim cites a CFB id that does not exist
//   CLAIM_CFB_NOT_INJECTED   a claim cites a CFB that exists but was not given to the model this turn
//   CLAIM_UNKNOWN_UNDEFINED  a claim points at an unknown id the answer does not define
//   CLAIM_MAP_INCOMPLETE     a sentence of assistant_text states something and no claim covers it
//                            (an empty claim_map included: only an absent one is MISSING);
//                            what counts as a statement and as covered: claim-statements.ts
// In a strict domain any finding refuses the attempt (the next one is tried; if none passes the
// turn fails with the findings); elsewhere the findings are kept as warnings with the answer.

const CLAIM_CODES = [
  "CLAIM_MAP_MISSING",
  "CLAIM_UNSUPPORTED",
  "CLAIM_CFB_UNKNOWN",
  "CLAIM_CFB_NOT_INJECTED",
  "CLAIM_UNKNOWN_UNDEFINED",
  "CLAIM_MAP_INCOMPLETE",
] as const;
type TClaimCode = (typeof CLAIM_CODES)[number];
export type TClaimFinding = {
  code: TClaimCode;
  claim_id: string | null;
  detail: string;
  /** CLAIM_MAP_INCOMPLETE: the uncovered sentences' indexes (as `span.sentence` counts them). */
  sentences?: number[];
};
export type TClaimCheck = {
  strict: boolean;
  domain: string;
  findings: TClaimFinding[];
};

const FINDINGS_IN_REASON = 3;
const SENTENCES_IN_REASON = 8;

/** Every CFB id a claim map cites. */
function citedCfbIds(meta: TOutputMeta): string[] {
  return [...new Set((meta.claim_map ?? []).flatMap((c) => c.support.cfb_ids ?? []))];
}

/** The answer whose completeness is judged: its text and, in procedure mode, the turn's wording. */
export type TClaimAnswer = { text: string; procedure?: TProcedureWording | null };

/** "sentences 0, 2 (in part)": indexes only, never the answer's words. */
function sentenceList(uncovered: readonly TUncovered[], max = Number.POSITIVE_INFINITY): string {
  const shown = uncovered.slice(0, max).map((u) => `${u.index}${u.partly ? " (in part)" : ""}`);
  const more = uncovered.length > max ? `, +${uncovered.length - max} more` : "";
  return `${uncovered.length === 1 ? "sentence" : "sentences"} ${shown.join(", ")}${more}`;
}

/**
 * The findings of one answer's claim map, in claim order, then its completeness when `answer` is
 * given (pure).
 */
export function checkClaims(
  meta: TOutputMeta,
  known: { injected: { has(id: string): boolean }; existing: { has(id: string): boolean } },
  answer?: TClaimAnswer,
): TClaimFinding[] {
  if (meta.claim_map === undefined)
    return [{ code: "CLAIM_MAP_MISSING", claim_id: null, detail: "the answer has no claim_map" }];
  const unknowns = new Set((meta.unknowns ?? []).map((u) => u.id));
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
  if (answer !== undefined) {
    const uncovered = uncoveredStatements(answer.text, meta.claim_map, {
      procedure: answer.procedure ?? null,
      proposals: meta.cfb_suggestions ?? [],
    });
    if (uncovered.length > 0) {
      const empty = meta.claim_map.length === 0 ? "the claim map is empty: " : "";
      findings.push({
        code: "CLAIM_MAP_INCOMPLETE",
        claim_id: null,
        detail: `${empty}${sentenceList(uncovered)} of assistant_text ${uncovered.length === 1 ? "states" : "state"} something no claim covers`,
        sentences: uncovered.map((u) => u.index),
      });
    }
  }
  return findings;
}

/** The finding as the refusal reason names it: its code and claim id, or its sentences' indexes. */
function reasonPart(f: TClaimFinding): string {
  if (f.claim_id) return `${f.code} (${f.claim_id})`;
  if (f.sentences && f.sentences.length > 0) {
    const shown = f.sentences.slice(0, SENTENCES_IN_REASON).join(", ");
    const more = f.sentences.length > SENTENCES_IN_REASON ? ", …" : "";
    return `${f.code} (${f.sentences.length === 1 ? "sentence" : "sentences"} ${shown}${more})`;
  }
  return f.code;
}

/**
 * The claim check of a turn: judges attempts (async: cited ids are looked up) and remembers
 * findings by n.
 *
 * `procedure` is the turn's procedure as the model got it (TModelInput.procedure): null on a plain
 * turn. Sentences that only repeat its directive or ask its next check are not statements
 * (claim-statements.ts); a plain turn may repeat nothing without a claim.
 */
export function createClaimJudge(
  deps: TServiceDeps,
  route: { domain: string; strict: boolean; reason?: string },
  injected: ReadonlySet<string>,
  procedure: TModelProcedure | null,
) {
  const checks = new Map<number, TClaimCheck>();
  const wording = procedure === null ? null : procedureWording(procedure);
  return {
    checks,
    async judge({ output, attempt }: { output: TModelOutput; attempt: TModelAttempt }) {
      const envelope = output.envelope as { assistant_text?: unknown; meta?: TOutputMeta };
      const meta = envelope.meta;
      if (meta === undefined) return { deliver: true as const };
      const text = typeof envelope.assistant_text === "string" ? envelope.assistant_text : "";
      const existing = await deps.repos.cfbs.existingIds(citedCfbIds(meta));
      const findings = checkClaims(meta, { injected, existing }, { text, procedure: wording });
      checks.set(attempt.n, { strict: route.strict, domain: route.domain, findings });
      if (!route.strict || findings.length === 0) return { deliver: true as const };
      // Codes, claim ids and sentence indexes only: the reason ends up in the error a person
      // sees, and the refused answer's own words must not reach them (the details are in the
      // "claims" trace event).
      const listed = findings.slice(0, FINDINGS_IN_REASON).map(reasonPart).join(", ");
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
