import type { TContextEvent, TDirective } from "@solserver/engine";

// The context engine's events as trace lines (phase "context"): what it decided and why, in words
// a person reading a turn's timeline follows without the engine's source at hand.

const str = (value: unknown) => (Array.isArray(value) ? value.join(", ") : String(value ?? "—"));

export function eventSummary(event: TContextEvent): string {
  const d = event.detail;
  switch (event.type) {
    case "intent":
      return d.intent === "COMPLAINT"
        ? `Complaint recorded${Array.isArray(d.noted) && d.noted.length > 0 ? `; stated ${str(d.noted)}` : ""}`
        : `Intent ${str(d.intent)}${d.step ? ` at step ${str(d.step)}` : ""}${d.answer ? ` (answer ${str(d.answer)})` : ""}`;
    case "step_completed":
      return `Step ${str(d.step)} completed: ${str(d.finding)} (+${str(d.minutes)} min labor draft)`;
    case "replan":
      return `Replan: ${str(d.step)} was ${str(d.from)}, now ${str(d.to)}; rolled back ${str(d.rolled_back)}`;
    case "topic_push":
      return `Sub-topic ${str(d.kind)} opened on step ${str(d.step)}`;
    case "topic_pop":
      return `Sub-topic ${str(d.kind)} closed: back to the main line`;
    case "mode_change":
      return `Mode ${str(d.from)} → ${str(d.to)}`;
    case "loop_guard":
      return `Loop guard: ${str(d.rule)} on ${str(d.step)} (${str(d.reasks)} unclear replies)`;
    case "escalate":
      return `Escalated (${str(d.reason)})${d.step ? ` at ${str(d.step)}` : ""}${d.rule ? ` by rule ${str(d.rule)}` : ""}`;
    case "not_checked":
      return d.passed
        ? `Step ${str(d.step)} passed as not checked (${str(d.reason)})`
        : `Nothing recorded at ${str(d.step)} (${str(d.reason)}); how to check it offered`;
    case "safety":
      return d.action === "stop" ? `Safety stop: ${str(d.rule)}` : `Safety stop ${str(d.rule)} cleared`;
    case "evidence_rule":
      return `Evidence rule ${str(d.rule)}: "${str(d.text)}"`;
    case "report_revised":
      return d.reopened
        ? `Report reopened (${str(d.because)})`
        : `Report revision ${str(d.revision)} (${str(d.because)})`;
    case "language":
      return `Language ${str(d.from)} → ${str(d.to)}`;
    case "restart":
      return `Started over: ${str(d.dropped)} finding(s) dropped, back to ${str(d.step)}`;
    case "labor":
      return `Labor ${d.mode === "add" ? `+${str(d.minutes)}` : `set to ${str(d.minutes)}`} min: ${str(d.from)} → ${str(d.to)} min`;
  }
}

export function directiveSummary(directive: TDirective): string {
  return `Directive ${directive.kind}${directive.step_id ? ` (step ${directive.step_id})` : ""}`;
}
