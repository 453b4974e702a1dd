import type { TTickReport } from "../services/schedules";

// The loop that makes schedules happen inside a long-running process (the web server): a tick
// every interval, never two at once in this process (the next timer is set when a tick ends, so a
// slow beat start cannot pile ticks up), and timers that do not keep the process alive. Between
// processes, the schedule's atomic claim decides who runs an occurrence.

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

export type TSchedulerOptions = {
  tick: () => Promise<TTickReport>;
  intervalMs: number;
  log: (line: string) => void;
  error: (line: string) => void;
};

/** Ticks every `intervalMs` until stopped; logs what each tick did (quiet when nothing was due). */
export function startScheduler(opts: TSchedulerOptions): { stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    timer = setTimeout(run, opts.intervalMs);
    // A test process or a build worker that loads the server must still be able to exit.
    timer.unref();
  };
  const run = async () => {
    try {
      const report = await opts.tick();
      if (report.handled.length > 0 || (report.checkpoints ?? []).length > 0)
        for (const line of tickLines(report)) opts.log(`scheduler: ${line}`);
    } catch (error) {
      opts.error(`scheduler: tick failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      arm();
    }
  };
  arm();
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
