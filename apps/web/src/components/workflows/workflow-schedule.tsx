"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { type TRouterOutputs, useTRPC } from "@/lib/trpc";
import { DataTable } from "../ui/data-table";
import { formatTs } from "../ui/format";
import { QueryState } from "../ui/query-state";
import { ErrorAlert } from "../ui/ui";
import { runAnchor, useRefreshWorkflows, WorkflowStatusBadge } from "./workflow-parts";

// The Umbra beat's schedule on /workflows: Jam editors turn it on, pick daily or weekly and a UTC
// time, and see when it runs next and what the latest occurrences did. The server validates and
// computes the next run; this form only shows its answer (or its error, which names the field).

type TSchedule = TRouterOutputs["workflows"]["schedule"];
type TOccurrence = TSchedule["runs"][number];
type TCadence = TSchedule["cadence"];

const INPUT = { workflow: "umbra-beat" } as const;
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** "Monday 10 March 2025, 06:30 UTC": the schedule is in UTC, so its times are shown in UTC. */
function utc(ts: string): string {
  const date = new Date(ts);
  if (Number.isNaN(date.getTime())) return ts;
  const day = date.toLocaleDateString("en-GB", {
    timeZone: "UTC",
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
  });
  return `${day}, ${date.toISOString().slice(11, 16)} UTC`;
}

function summary(s: TSchedule): string {
  if (!s.enabled) return "The Umbra beat does not run on a schedule.";
  const when = s.cadence === "weekly" ? `every ${WEEKDAYS[s.weekday ?? 0]}` : "every day";
  return `The Umbra beat runs ${when} at ${s.time_of_day} UTC, as ${s.run_as_email ?? "nobody"}.`;
}

/** One occurrence's outcome in words, with the run it started (and where that run stands now). */
function Outcome({ run }: { run: TOccurrence }) {
  if (run.outcome === "started" && run.run_id) {
    return (
      <span className="row">
        <span>started</span>
        <a href={run.run_status ? runAnchor({ run_id: run.run_id, status: run.run_status }) : `#run-${run.run_id}`}>
          {run.run_id}
        </a>
        {run.run_status ? <WorkflowStatusBadge status={run.run_status} /> : null}
      </span>
    );
  }
  if (run.outcome === "skipped_overlap") {
    return <span>skipped: {run.detail ?? "another run was still under way"}</span>;
  }
  return <span className="error">failed: {run.detail ?? "no message"}</span>;
}

function Occurrences({ runs }: { runs: TOccurrence[] }) {
  if (runs.length === 0) return <p className="muted">No scheduled run yet.</p>;
  return (
    <DataTable headers={["Due", "Handled", "Outcome"]} caption="Scheduled runs" className="workflow-schedule-runs">
      <tbody>
        {runs.map((run) => (
          <tr key={run.due_ts} data-outcome={run.outcome}>
            <td className="nowrap">{utc(run.due_ts)}</td>
            <td className="nowrap">{formatTs(run.started_ts)}</td>
            <td>
              <Outcome run={run} />
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

type TSave = {
  workflow: "umbra-beat";
  enabled: boolean;
  cadence: TCadence;
  time_of_day: string;
  weekday: number | null;
};

/** The form, seeded from the saved schedule (remounted when it changes, see the key below). */
function ScheduleForm({
  saved,
  pending,
  onSave,
}: {
  saved: TSchedule;
  pending: boolean;
  onSave: (input: TSave) => void;
}) {
  const [enabled, setEnabled] = useState(saved.enabled);
  const [cadence, setCadence] = useState<TCadence>(saved.cadence);
  const [time, setTime] = useState(saved.time_of_day);
  const [weekday, setWeekday] = useState(saved.weekday ?? 1);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSave({
      ...INPUT,
      enabled,
      cadence,
      time_of_day: time.trim(),
      weekday: cadence === "weekly" ? weekday : null,
    });
  }

  return (
    <form className="stack" onSubmit={submit}>
      <label className="row">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        <span>Run the Umbra beat on a schedule</span>
      </label>
      <div className="row form-row">
        <label className="field">
          <span>Cadence</span>
          <select value={cadence} onChange={(e) => setCadence(e.target.value as TCadence)}>
            <option value="daily">Daily</option>
            <option value="weekly">Weekly</option>
          </select>
        </label>
        {cadence === "weekly" ? (
          <label className="field">
            <span>Weekday</span>
            <select value={weekday} onChange={(e) => setWeekday(Number(e.target.value))}>
              {WEEKDAYS.map((name, i) => (
                <option key={name} value={i}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="field">
          <span>Time (UTC, HH:MM)</span>
          <input
            type="text"
            inputMode="numeric"
            placeholder="06:30"
            maxLength={5}
            value={time}
            onChange={(e) => setTime(e.target.value)}
          />
        </label>
        <button type="submit" className="primary" disabled={pending}>
          {pending ? "Saving…" : "Save schedule"}
        </button>
      </div>
    </form>
  );
}

/** The Umbra beat's schedule: the settings, the next run, and the latest scheduled occurrences. */
export function WorkflowSchedule() {
  const trpc = useTRPC();
  const refresh = useRefreshWorkflows();
  const schedule = useQuery(trpc.workflows.schedule.queryOptions(INPUT));
  // Here rather than in the form: a save remounts the form, and its outcome must stay on screen.
  const save = useMutation(trpc.workflows.setSchedule.mutationOptions({ onSuccess: refresh }));
  return (
    <section className="panel stack" aria-labelledby="schedule-heading" data-testid="workflow-schedule">
      <h2 id="schedule-heading">Schedule</h2>
      <QueryState query={schedule} what="the Umbra beat's schedule" loading="Loading the schedule…">
        {(s) => (
          <>
            <p>{summary(s)}</p>
            <p data-testid="schedule-next-run">
              <strong>Next run:</strong> {s.next_run_ts ? utc(s.next_run_ts) : "none (the schedule is off)"}
            </p>
            <p className="muted">
              A scheduled beat stops at its review checkpoint like any other; it starts nothing while another beat is
              still under way.
            </p>
            {/* Keyed by the saved version: after a save the form shows what the server stored. */}
            <ScheduleForm
              key={s.updated_ts ?? "unset"}
              saved={s}
              pending={save.isPending}
              onSave={(input) => save.mutate(input)}
            />
            <div role="status" className="workflow-live">
              {save.isSuccess ? <p className="ok">Schedule saved.</p> : null}
            </div>
            <ErrorAlert
              what="Could not save the schedule"
              error={save.error}
              fields={{ time_of_day: "Time", weekday: "Weekday", cadence: "Cadence" }}
            />
            <h3>Scheduled runs</h3>
            <Occurrences runs={s.runs} />
          </>
        )}
      </QueryState>
    </section>
  );
}
