"use client";
import type { TGateEvaluationView, TGateStatus } from "@solserver/contracts";

// The gate's results in words a reader takes at a glance. The stored title is the seed's report
// line, kept verbatim for the CLI ("No PII detected: Detected 3 match(es)." even when it failed);
// the dashboard says what the check is, whether it passed, and the finding.

const POLICY_WORDS: Record<string, string> = {
  pii: "Personal data (PII)",
  cost: "Cost",
  drift: "Length and wording drift",
  latency: "Latency",
  output_contract: "Output contract",
};
const BADGE: Record<TGateStatus, string> = { ALLOW: "ok", WARN: "warn", BLOCK: "bad" };

/** The decision as a coloured badge (the word is the information; colour only helps). */
export function GateBadge({ status }: { status: TGateStatus }) {
  return <span className={`badge ${BADGE[status]}`}>{status}</span>;
}

const STATUS_WORDS: Record<TGateStatus, string> = { ALLOW: "passed", WARN: "warning", BLOCK: "blocked" };

/** What a policy found: its title's finding ("Delta +40.00%"), "found 3 matches" for PII. */
function findingOf(p: TGateEvaluationView["policies"][number]): string {
  // A waived finding is still reported, marked, so a pass is never mistaken for a clean one.
  const waived = Array.isArray((p.details as { waived?: unknown }).waived) ? " (waived)" : "";
  return `${finding(p)}${waived}`;
}

function finding(p: TGateEvaluationView["policies"][number]): string {
  if (p.policy === "pii") {
    const n = Number((p.details as { metrics?: { pii_matches?: number } }).metrics?.pii_matches ?? 0);
    return n === 0 ? "none found" : `found ${n} ${n === 1 ? "match" : "matches"}`;
  }
  const after = p.title.indexOf(": ");
  return (after === -1 ? p.title : p.title.slice(after + 2)).replace(/\.$/, "");
}

/** ✓ / ! / ✗ per policy, with the check's name, its outcome in words and its finding. */
export function PolicyLines({ policies }: { policies: TGateEvaluationView["policies"] }) {
  return (
    <ul className="plain">
      {policies.map((p) => (
        <li key={p.policy} data-policy={p.policy} data-status={p.status}>
          <span aria-hidden="true">{p.status === "ALLOW" ? "✓" : p.status === "WARN" ? "!" : "✗"}</span>{" "}
          {POLICY_WORDS[p.policy] ?? p.policy} {STATUS_WORDS[p.status]}: {findingOf(p)}
        </li>
      ))}
    </ul>
  );
}

type TSpan = { start: number; end: number; type: string };

/**
 * The candidate with each PII match marked where it is (the policy's start/end). Only for plain
 * text: a JSON output is scanned as its decoded strings, whose positions are not the JSON's.
 */
export function HighlightedPii({ text, policies }: { text: string; policies: TGateEvaluationView["policies"] }) {
  const pii = policies.find((p) => p.policy === "pii");
  const spans = ((pii?.details as { matches?: TSpan[] } | undefined)?.matches ?? [])
    .filter((m) => Number.isInteger(m.start) && Number.isInteger(m.end) && m.end > m.start && m.end <= text.length)
    .sort((a, b) => a.start - b.start);
  if (spans.length === 0 || isJson(text)) return null;
  const parts: { text: string; mark?: string; at: number }[] = [];
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue;
    if (s.start > at) parts.push({ text: text.slice(at, s.start), at });
    parts.push({ text: text.slice(s.start, s.end), mark: s.type, at: s.start });
    at = s.end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), at });
  return (
    <div className="stack">
      <span className="muted">Where the candidate leaks it:</span>
      <p className="message pii-text" data-testid="pii-highlight">
        {parts.map((p) =>
          p.mark ? (
            <mark key={p.at} title={p.mark.toLowerCase().replace("_", " ")}>
              {p.text}
            </mark>
          ) : (
            <span key={p.at}>{p.text}</span>
          ),
        )}
      </p>
    </div>
  );
}

function isJson(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}
