import type { TGateDecision, TGateStatus } from "@solserver/contracts";
import { REPORT_ORDER } from "@solserver/gate";
import type { TAcceptedRisk } from "./accept-risk";
import { describeOutcome, type TExitCode } from "./exit-codes";

/** Width of the box-drawing header and footer (inner width + 2 borders). */
const BOX_WIDTH = 52;

/** ✓ ALLOW, ! WARN (review), ✗ BLOCK: the mark in front of each policy line. */
export const STATUS_MARK: Record<TGateStatus, string> = { ALLOW: "✓", WARN: "!", BLOCK: "✗" };

/** A three-line box with a centred title. */
export function boxHeader(title: string): string[] {
  const inner = Math.max(BOX_WIDTH - 2, title.length + 2);
  const left = Math.floor((inner - title.length) / 2);
  const right = inner - title.length - left;
  return [`╔${"═".repeat(inner)}╗`, `║${" ".repeat(left)}${title}${" ".repeat(right)}║`, `╚${"═".repeat(inner)}╝`];
}

export function footerRule(): string {
  return "═".repeat(BOX_WIDTH);
}

export function strictLine(strict: boolean): string {
  return `Strict: ${strict ? "yes (WARN counts as BLOCK)" : "no"}`;
}

export interface TTextReportContext {
  baselineFile: string;
  candidateFile: string;
  configFile?: string | undefined;
  /** The preset and environment the config was resolved with, when any. */
  preset?: string | null;
  environment?: string | null;
  exitCode: TExitCode;
  /** --verbose: sections inserted before the summary (report-verbose.ts). */
  verbose?: string[];
}

/** The Config line: the file, and the preset / environment it was resolved with. */
function configLine(ctx: TTextReportContext): string | null {
  const extra = [
    ctx.preset ? `preset ${ctx.preset}` : null,
    ctx.environment ? `environment ${ctx.environment}` : null,
  ].filter((x) => x !== null);
  if (ctx.configFile === undefined && extra.length === 0) return null;
  const file = ctx.configFile ?? "(defaults)";
  return `Config: ${file}${extra.length > 0 ? ` (${extra.join(", ")})` : ""}`;
}

/** The summary lines for waivers: what was waived, and what no longer is. */
function waiverLines(waivers: TGateDecision["waivers"]): string[] {
  const lines: string[] = [];
  for (const w of waivers?.applied ?? []) {
    lines.push(
      `- Waived ${w.matched.join(", ")} until ${w.expires_at} (owner ${w.owner}${w.ticket ? `, ${w.ticket}` : ""}): ${w.reason}`,
    );
  }
  for (const w of waivers?.expired ?? []) {
    const what = w.matched.length > 0 ? `${w.matched.join(", ")} counts again` : `covered ${w.codes.join(", ")}`;
    lines.push(
      `- Waiver expired on ${w.expires_at} (owner ${w.owner}): ${what}; renew it or remove it from the config.`,
    );
  }
  return lines;
}

function describeFile(file: string, model: string | null): string {
  return model === null ? file : `${file} (${model})`;
}

/**
 * The seed's text report: header box, mode, final decision, one ✓ / ! / ✗ line per policy that
 * ran (its title), the summary of reasons, and the exit code.
 */
export function renderTextReport(
  decision: TGateDecision & { accepted_risks?: readonly TAcceptedRisk[] },
  ctx: TTextReportContext,
): string {
  const { metadata } = decision;
  const lines: string[] = [...boxHeader("BreakPoint Evaluation")];
  lines.push(`Mode: ${metadata.mode}`);
  lines.push(strictLine(metadata.strict));
  lines.push(`Baseline: ${describeFile(ctx.baselineFile, metadata.baseline_model)}`);
  lines.push(`Candidate: ${describeFile(ctx.candidateFile, metadata.candidate_model)}`);
  const config = configLine(ctx);
  if (config !== null) lines.push(config);
  lines.push("", `Final Decision: ${decision.status}`, "", "Policy Results:");
  // The seed's report lists PII, cost, drift (the decision itself is in evaluation order).
  const shown = [...decision.policies].sort((a, b) => REPORT_ORDER.indexOf(a.policy) - REPORT_ORDER.indexOf(b.policy));
  for (const policy of shown) lines.push(`${STATUS_MARK[policy.status]} ${policy.title}`);
  if (decision.policies.length === 0) lines.push("(no policy ran)");
  if (ctx.verbose) lines.push(...ctx.verbose);
  lines.push("", "Summary:");
  if (decision.reasons.length === 0) lines.push("- All policies passed.");
  for (const reason of decision.reasons) lines.push(`- ${reason}`);
  const promoted =
    metadata.strict && decision.status === "BLOCK" && !decision.policies.some((p) => p.status === "BLOCK");
  if (promoted) lines.push("- Strict mode: WARN promoted to BLOCK.");
  lines.push(...waiverLines(decision.waivers));
  for (const risk of decision.accepted_risks ?? [])
    lines.push(`- Accepted risk (--accept-risk ${risk.policy}): was ${risk.was}: ${risk.reasons.join(" ")}`);
  lines.push("", `Exit Code: ${ctx.exitCode} (${describeOutcome(decision.status, ctx.exitCode)})`, footerRule());
  return `${lines.join("\n")}\n`;
}
