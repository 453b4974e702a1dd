import type { TTickReport } from "../services/schedules";

// What a schedule tick did, as the server's `schedules-tick` job (jobs/jobs.ts) and `pnpm workflow
// tick` print it. Between processes, the schedule's atomic claim decides who runs an occurrence.

/** What a tick did, one line per occurrence; one line saying so when nothing was due. */
export function tickLines(report: TTickReport): string[] {
  const lines = report.handled.map((item) => {
    const head = `${item.workflow} (due ${item.due_ts})`;
    const next = item.next_run_ts ? `; next ${item.next_run_ts}` : "";
    switch (item.outcome) {
      case "started":
        return `${head}: started ${item.run_id}${next}`;
      case "skipped_overlap":
        return `${head}: skipped, ${item.detail ?? "a run was still under way"}${next}`;
      case "failed":
        return `${head}: failed: ${item.detail ?? "no message"}${next}`;
      default:
        return `${head}: not started here: ${item.detail ?? "another tick handled it"}`;
    }
  });
  for (const c of report.checkpoints ?? []) {
    lines.push(`checkpoint of ${c.run_id} timed out: ${c.outcome}${c.detail ? ` (${c.detail})` : ""}`);
  }
  if (lines.length > 0) return lines;
  if (report.upcoming.length === 0) return ["nothing due: no workflow schedule is enabled"];
  const upcoming = report.upcoming.map((u) => `${u.workflow} ${u.schedule}, next ${u.next_run_ts}`).join("; ");
  return [`nothing due: ${upcoming}`];
}
