import type { TGateDecision } from "@solserver/contracts";
import { REPORT_ORDER } from "@solserver/gate";
import { STATUS_MARK } from "./report-text";

// `evaluate --verbose`: the text report plus what a reviewer needs to judge the decision without
// opening the JSON: every policy's findings with their codes and figures (including policies that
// passed), the notes that change a verdict (capped, waived, skipped, accepted), and the two
// records side by side.

function figure(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 10000) / 10000);
}

function metricsLine(details: Record<string, unknown>): string | null {
  const m = details.metrics;
  if (m === null || typeof m !== "object") return null;
  const parts = Object.entries(m as Record<string, unknown>)
    .filter((e): e is [string, number] => typeof e[1] === "number")
    .map(([k, v]) => `${k}=${Number.isFinite(v) ? figure(v) : "inf"}`);
  return parts.length === 0 ? null : `    figures: ${parts.join(", ")}`;
}

function notes(details: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (details.capped === true) out.push("    note: BLOCK capped to WARN by enforce: warn");
  if (Array.isArray(details.waived)) out.push(`    note: waived ${details.waived.join(", ")}`);
  if (typeof details.accepted_risk === "string")
    out.push(`    note: ${details.accepted_risk} accepted (--accept-risk)`);
  if (typeof details.skipped === "string") out.push(`    note: skipped: ${details.skipped}`);
  return out;
}

type TSide = Record<string, unknown>;

const FIELDS = ["model", "cost_usd", "latency_ms", "tokens_in", "tokens_out", "tokens_total"] as const;

function cell(value: unknown): string {
  if (value === undefined || value === null) return "-";
  return typeof value === "number" ? figure(value) : String(value);
}

/** The verbose sections, inserted before the text report's Summary. */
export function renderVerboseSections(decision: TGateDecision, baseline: TSide, candidate: TSide): string[] {
  const lines = ["", "Details:"];
  const shown = [...decision.policies].sort((a, b) => REPORT_ORDER.indexOf(a.policy) - REPORT_ORDER.indexOf(b.policy));
  for (const p of shown) {
    lines.push(`${STATUS_MARK[p.status]} ${p.policy} (${p.status}): ${p.title}`);
    const aligned = p.reasons.length === p.codes.length;
    p.reasons.forEach((reason, i) => {
      lines.push(`    - ${reason}${aligned ? ` [${p.codes[i]}]` : ""}`);
    });
    if (!aligned && p.codes.length > 0) lines.push(`    codes: ${p.codes.join(", ")}`);
    const m = metricsLine(p.details);
    if (m !== null) lines.push(m);
    lines.push(...notes(p.details));
  }
  const length = (r: TSide) => (typeof r.output === "string" ? [...r.output].length : undefined);
  const rows: string[][] = [
    ["", "BASELINE", "CANDIDATE"],
    ["characters", cell(length(baseline)), cell(length(candidate))],
  ];
  for (const field of FIELDS) {
    if (baseline[field] !== undefined || candidate[field] !== undefined) {
      rows.push([field, cell(baseline[field]), cell(candidate[field])]);
    }
  }
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  lines.push("", "Comparison:");
  for (const row of rows) lines.push(`  ${row.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ")}`.trimEnd());
  return lines;
}
