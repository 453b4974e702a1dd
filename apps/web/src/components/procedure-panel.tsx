"use client";
import type { TProcedureReport, TProcedureView } from "@solserver/contracts";

// Where a thread's guided diagnosis stands (procedure mode, seed 004): the active step with its
// answer options, the steps done with their findings, the labor draft and, at the end, the final
// report. Everything shown is the context engine's state; the panel decides nothing.

const MODE_LABEL: Record<TProcedureView["mode"], string> = {
  diagnostic: "Diagnosing",
  authorization: "Awaiting authorization",
  final_report: "Final report",
};

function ProcedureReport({ report }: { report: TProcedureReport }) {
  const status =
    report.escalation === "warranty"
      ? "Escalated to the dealer under warranty"
      : report.authorized
        ? "Repair authorized"
        : "Repair not authorized";
  return (
    <section className="card stack" aria-labelledby="procedure-report-heading" data-testid="procedure-report">
      <h3 id="procedure-report-heading">Final report</h3>
      <dl className="stack">
        <div>
          <dt className="muted">Complaint</dt>
          <dd>{report.complaint}</dd>
        </div>
        <div>
          <dt className="muted">Cause</dt>
          <dd>{report.cause}</dd>
        </div>
        <div>
          <dt className="muted">Correction</dt>
          <dd>{report.correction}</dd>
        </div>
      </dl>
      <h4>Steps performed</h4>
      <ol data-testid="procedure-report-steps">
        {report.steps_performed.map((s) => (
          <li key={s.step}>
            {s.question} <span className="badge">{s.finding}</span>
          </li>
        ))}
      </ol>
      <p>
        Labor (draft): <strong>{report.labor.draft_minutes} min</strong> ·{" "}
        <span className={report.escalation || report.authorized === false ? "error" : "ok"}>{status}</span>
      </p>
    </section>
  );
}

/**
 * A thread's diagnosis. With `onAnswer` (the chat), the active step's options are buttons that
 * send the option as the technician's reply; without it (the thread page) they are listed.
 */
export function ProcedurePanel({
  view,
  onAnswer,
  busy = false,
}: {
  view: TProcedureView;
  onAnswer?: (option: string) => void;
  busy?: boolean;
}) {
  const done = view.completed_steps.length;
  const askingAuthorization = view.mode === "authorization";
  const options = askingAuthorization ? ["yes", "no"] : (view.active_step?.options ?? []);
  return (
    <section className="panel stack" aria-labelledby="procedure-heading" data-testid="procedure-panel">
      <div className="row spread">
        <h2 id="procedure-heading">{view.system_title}</h2>
        <span className="badge" data-testid="procedure-mode">
          {MODE_LABEL[view.mode]}
          {view.submode !== "main" ? ` · ${view.submode}` : ""}
        </span>
      </div>
      <p className="muted">
        {view.procedure_title} · {done} step{done === 1 ? "" : "s"} done · labor draft {view.labor.draft_minutes} min
        {view.state_source === "rebuilt" ? " · rebuilt from the messages" : ""}
      </p>
      {view.active_step ? (
        <div className="card stack" data-testid="procedure-active-step">
          <span className="muted">Active step: {view.active_step.id}</span>
          <strong>{view.active_step.question}</strong>
        </div>
      ) : null}
      {askingAuthorization ? (
        <div className="card stack" data-testid="procedure-authorization">
          <strong>Diagnosis complete: authorize the repair?</strong>
        </div>
      ) : null}
      {view.mode !== "final_report" && options.length > 0 ? (
        onAnswer ? (
          <fieldset className="row bare">
            <legend className="visually-hidden">Answer options</legend>
            {options.map((o) => (
              <button key={o} type="button" onClick={() => onAnswer(o)} disabled={busy}>
                {o}
              </button>
            ))}
          </fieldset>
        ) : (
          <p className="muted">Options: {options.join(" / ")}</p>
        )
      ) : null}
      {done > 0 && view.report === null ? (
        <details open={view.mode !== "diagnostic"}>
          <summary>Steps done ({done})</summary>
          <ol data-testid="procedure-completed">
            {view.completed_steps.map((s) => (
              <li key={s.id}>
                {s.question} {s.finding ? <span className="badge">{s.finding}</span> : null}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {view.report ? <ProcedureReport report={view.report} /> : null}
    </section>
  );
}
