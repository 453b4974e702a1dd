"use client";
import type { TClaimCheckView, TClaimMapEntry } from "@solserver/contracts";
import Link from "next/link";
import type { ReactNode } from "react";

// A delivered answer's claims (seed 001 §4): each claim with what supports it (CFBs, or the
// unknown it depends on), and the claim-map check's findings. Sentences whose claim is not
// supported are highlighted in the answer. In a strict domain an answer with findings is never
// delivered, so findings shown here are always the warnings of a non-strict domain.

type TAnswer = {
  assistant_text: string;
  claim_map: TClaimMapEntry[] | null;
  claim_check: TClaimCheckView | null;
};

/** Where a claim sits in the answer: its character span, else its text when the answer contains it. */
function spanOf(text: string, claim: TClaimMapEntry): [number, number] | null {
  const { start_char: start, end_char: end } = claim.span;
  if (start !== undefined && end !== undefined && start < end && end <= text.length) return [start, end];
  const at = text.indexOf(claim.text);
  return at >= 0 ? [at, at + claim.text.length] : null;
}

/** The answer with the given spans marked (spans sorted, overlaps merged). */
function highlighted(text: string, spans: [number, number][]): ReactNode[] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const out: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of sorted) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    if (from > at) out.push(text.slice(at, from));
    out.push(
      <mark key={from} data-testid="unsupported-claim">
        {text.slice(from, end)}
      </mark>,
    );
    at = end;
  }
  out.push(text.slice(at));
  return out;
}

export function ClaimsView({ answer }: { answer: TAnswer }) {
  const claims = answer.claim_map ?? [];
  const findings = answer.claim_check?.findings ?? [];
  if (claims.length === 0 && findings.length === 0) return null;
  const byClaim = new Map<string, string[]>();
  for (const f of findings) if (f.claim_id) byClaim.set(f.claim_id, [...(byClaim.get(f.claim_id) ?? []), f.code]);
  const unsupported = claims
    .filter((c) => byClaim.has(c.claim_id))
    .flatMap((c) => {
      const span = spanOf(answer.assistant_text, c);
      return span ? [span] : [];
    });
  const general = findings.filter((f) => f.claim_id === null);
  return (
    <details className="stack" data-testid="claims" open={findings.length > 0}>
      <summary>
        Claims ({claims.length}){" "}
        {findings.length > 0 ? (
          <span className="badge warn">{findings.length} unsupported</span>
        ) : (
          <span className="badge ok">all supported</span>
        )}
        {answer.claim_check?.strict ? <span className="badge">strict domain</span> : null}
      </summary>
      {unsupported.length > 0 ? (
        <p className="reply" data-testid="claims-answer">
          {highlighted(answer.assistant_text, unsupported)}
        </p>
      ) : null}
      {general.map((f) => (
        <p key={f.code} className="error">
          {f.code}: {f.detail}
        </p>
      ))}
      <ol className="stack plain">
        {claims.map((c) => {
          const codes = byClaim.get(c.claim_id) ?? [];
          return (
            <li key={c.claim_id} className={codes.length > 0 ? "card error" : "card"} data-testid="claim">
              <span className="muted">{c.claim_id}</span> {c.text}{" "}
              {(c.support.cfb_ids ?? []).map((id) => (
                <Link key={id} className="badge" href={`/cfbs/${encodeURIComponent(id)}`}>
                  {id}
                </Link>
              ))}
              {c.support.unknown_id ? <span className="badge">unknown {c.support.unknown_id}</span> : null}
              {codes.map((code) => (
                <span key={code} className="badge bad">
                  {code}
                </span>
              ))}
            </li>
          );
        })}
      </ol>
    </details>
  );
}
