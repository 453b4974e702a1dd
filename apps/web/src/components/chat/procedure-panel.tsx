"use client";
import type { TProcedureReport, TProcedureView } from "@solserver/contracts";

// Where a thread's guided diagnosis stands (procedure mode, seed 004): a safety stop when one is
// in force, the active step with its answer options, the steps done with their findings, the
// steps not checked, the labor draft and, at the end, the final report with its revisions.
// Everything shown is the context engine's state; the panel decides nothing.

const MODE_LABEL: Record<TProcedureView["mode"], string> = {
  diagnostic: "Diagnosing",
  authorization: "Awaiting authorization",
  final_report: "Final report",
  safety_stop: "Safety stop",
};

const REASON_LABEL: Record<string, string> = {
  unknown: "answer not known",
  no_tool: "no tool at hand",
  not_yet: "not checked yet",
  no_access: "could not get to it",
  skipped: "skipped",
  retracted: "said not checked",
};

function statusOf(report: TProcedureReport): { text: string; bad: boolean } {
  if (report.resolution === "fixed_by_technician") return { text: "Repaired by the technician", bad: false };
  if (report.escalation === "warranty") return { text: "Escalated to the dealer under warranty", bad: true };
  if (report.escalation === "evidence") return { text: "Escalated on the evidence found", bad: true };
  return report.authorized ? { text: "Repair authorized", bad: false } : { text: "Repair not authorized", bad: true };
}

/** The recorded answers by step, as the technician reads them (the report keeps the catalog's keys). */
type TLabels = ReadonlyMap<string, string>;

function ReportBody({ report, labels }: { report: TProcedureReport; labels: TLabels }) {
  const status = statusOf(report);
  return (
    <>
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
            {s.question} <span className="badge">{labels.get(s.step) ?? s.finding}</span>
          </li>
        ))}
      </ol>
      {report.not_checked.length > 0 ? (
        <>
          <h4>Not checked</h4>
          <ul data-testid="procedure-report-not-checked">
            {report.not_checked.map((s) => (
              <li key={s.step}>
                {s.question} <span className="badge">{REASON_LABEL[s.reason] ?? s.reason}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {report.observations.length > 0 ? (
        <>
          <h4>Observations</h4>
          <ul data-testid="procedure-report-observations">
            {report.observations.map((o) => (
              <li key={`${o.rule}:${o.text}`}>
                <strong>{o.label}</strong>: “{o.text}”
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {report.doctrine.length > 0 ? (
        <>
          <h4>Rule applied</h4>
          <ul data-testid="procedure-report-doctrine">
            {report.doctrine.map((d) => (
              <li key={d.id}>{d.rule}</li>
            ))}
          </ul>
        </>
      ) : null}
      {report.notes.length > 0 ? (
        <>
          <h4>Technician notes</h4>
          <ul data-testid="procedure-report-notes">
            {report.notes.map((n, i) => (
              // notes are append-only: the index is stable
              // biome-ignore lint/suspicious/noArrayIndexKey: notes may repeat word for word
              <li key={i}>{n}</li>
            ))}
          </ul>
        </>
      ) : null}
      <p>
        Labor (draft): <strong>{report.labor.draft_minutes} min</strong> ·{" "}
        <span className={status.bad ? "error" : "ok"}>{status.text}</span>
        {report.repair ? <> · “{report.repair}”</> : null}
      </p>
    </>
  );
}

function ProcedureReport({
  report,
  history,
  labels,
}: {
  report: TProcedureReport;
  history: TProcedureReport[];
  labels: TLabels;
}) {
  const t = report.translation;
  return (
    <section className="card stack" aria-labelledby="procedure-report-heading" data-testid="procedure-report">
      <h3 id="procedure-report-heading">
        Final report
        {report.revision > 1 ? (
          <span className="badge" data-testid="procedure-report-revision">
            revision {report.revision}: {report.revised_because}
          </span>
        ) : null}
      </h3>
      <ReportBody report={report} labels={labels} />
      {t ? (
        <details data-testid="procedure-report-translation">
          <summary>Copy in the technician's language ({t.language})</summary>
          <dl className="stack" lang={t.language}>
            <div>
              <dt className="muted">Cause</dt>
              <dd>{t.cause}</dd>
            </div>
            <div>
              <dt className="muted">Correction</dt>
              <dd>{t.correction}</dd>
            </div>
          </dl>
          <ol lang={t.language}>
            {t.steps_performed.map((s) => (
              <li key={s.step}>
                {s.question} <span className="badge">{s.finding}</span>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {history.length > 0 ? (
        <details data-testid="procedure-report-history">
          <summary>Earlier revisions ({history.length})</summary>
          {[...history].reverse().map((r) => (
            <div key={r.revision} className="card stack">
              <strong>
                Revision {r.revision}
                {r.revised_because ? `: ${r.revised_because}` : ""}
              </strong>
              <ReportBody report={r} labels={labels} />
            </div>
          ))}
        </details>
      ) : null}
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
  const done = view.completed_steps.filter((s) => s.finding !== null).length;
  const askingAuthorization = view.mode === "authorization";
  const options = askingAuthorization ? ["yes", "no"] : (view.active_step?.options ?? []);
  const unchecked = view.unchecked_steps.filter((s) => s.passed);
  return (
    <section className="panel stack" aria-labelledby="procedure-heading" data-testid="procedure-panel">
      <div className="row spread">
        <h2 id="procedure-heading">{view.system_title}</h2>
        <span className={view.mode === "safety_stop" ? "badge error" : "badge"} data-testid="procedure-mode">
          {MODE_LABEL[view.mode]}
          {view.submode !== "main" ? ` · ${view.submode}` : ""}
        </span>
      </div>
      <p className="muted">
        {view.procedure_title} · {done} step{done === 1 ? "" : "s"} done · labor draft {view.labor.draft_minutes} min
        {view.language !== "en" ? ` · language ${view.language}` : ""}
        {view.state_source === "rebuilt" ? " · rebuilt from the messages" : ""}
      </p>
      {view.safety ? (
        <div className="card stack error" role="alert" data-testid="procedure-safety">
          <strong>Safety stop</strong>
          <span>{view.safety.instruction}</span>
          <span className="muted">The diagnosis continues when you confirm it is safe.</span>
        </div>
      ) : null}
      {view.active_step ? (
        <div className="card stack" data-testid="procedure-active-step">
          <span className="muted">Active step: {view.active_step.id}</span>
          <strong lang={view.language}>{view.active_step.question}</strong>
        </div>
      ) : null}
      {askingAuthorization ? (
        <div className="card stack" data-testid="procedure-authorization">
          <strong>Diagnosis complete: authorize the repair?</strong>
        </div>
      ) : null}
      {view.mode !== "final_report" && view.mode !== "safety_stop" && options.length > 0 ? (
        onAnswer ? (
          <fieldset className="row bare">
            <legend className="visually-hidden">Answer options</legend>
            {options.map((o) => (
              <button key={o} type="button" onClick={() => onAnswer(o)} disabled={busy} lang={view.language}>
                {o}
              </button>
            ))}
            {view.mode === "diagnostic" ? (
              <button type="button" onClick={() => onAnswer("skip")} disabled={busy}>
                Can't check: skip
              </button>
            ) : null}
          </fieldset>
        ) : (
          <p className="muted">Options: {options.join(" / ")}</p>
        )
      ) : null}
      {done > 0 && view.report === null ? (
        <details open={view.mode !== "diagnostic"}>
          <summary>Steps done ({done})</summary>
          <ol data-testid="procedure-completed">
            {view.completed_steps
              .filter((s) => s.finding !== null)
              .map((s) => (
                <li key={s.id}>
                  {s.question} <span className="badge">{s.label ?? s.finding}</span>
                </li>
              ))}
          </ol>
        </details>
      ) : null}
      {unchecked.length > 0 && view.report === null ? (
        <div className="card stack" data-testid="procedure-unchecked">
          <strong>Not checked</strong>
          <ul>
            {unchecked.map((s) => (
              <li key={s.id}>
                {s.question} <span className="badge">{REASON_LABEL[s.reason] ?? s.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {view.report ? (
        <ProcedureReport
          report={view.report}
          history={view.report_history}
          labels={new Map(view.completed_steps.flatMap((s) => (s.label ? [[s.id, s.label] as const] : [])))}
        />
      ) : null}
    </section>
  );
}
