"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type TRouterOutputs, useTRPC } from "@/lib/trpc";
import { usageTotals } from "@/lib/usage-chart";
import { formatTs } from "../ui/format";
import { QueryState } from "../ui/query-state";
import { CfbUsageChart } from "./cfb-usage-chart";

type TActivity = TRouterOutputs["cfbs"]["activity"];

/** The chart's window, in days (today included). */
const DAYS = 30;

const STATUS_BADGE = {
  pending: "badge warn",
  approved: "badge ok",
  rejected: "badge bad",
  duplicate: "badge",
} as const;
const RELATION = { target: "targeted this CFB", promoted_into: "promoted into this CFB" } as const;

const percent = (share: number) => `${Math.round(share * 100)}%`;

function Stats({ stats }: { stats: TActivity["stats"] }) {
  if (!stats) {
    return (
      <p className="muted" data-testid="cfb-stats">
        No stats yet: they are counted from chat turns and feedback, and rebuilt by <code>pnpm db:stats</code>.
      </p>
    );
  }
  return (
    <dl className="meta" data-testid="cfb-stats">
      <dt>Hotness</dt>
      <dd>{stats.hotness.toFixed(2)}</dd>
      <dt>Injected</dt>
      <dd>
        {stats.usage_30d} {stats.usage_30d === 1 ? "time" : "times"} in 30 days
      </dd>
      <dt>Used / ignored</dt>
      <dd>
        {stats.used_by_model_30d} used · {stats.ignored_by_model_30d} ignored
      </dd>
      <dt>Feedback</dt>
      <dd>
        {stats.positive_feedback_30d} positive · {stats.negative_feedback_30d} negative · {stats.correction_events_30d}{" "}
        corrections
        {stats.last_feedback_ts ? ` (last ${formatTs(stats.last_feedback_ts)})` : ""}
      </dd>
      <dt>Unknown rate</dt>
      <dd>{percent(stats.unknown_rate_when_injected)} of the turns that injected it left an unknown</dd>
      <dt>Counted</dt>
      <dd>{formatTs(stats.updated_ts)}</dd>
    </dl>
  );
}

function Proposals({ proposals }: { proposals: TActivity["proposals"] }) {
  if (proposals.length === 0) {
    return (
      <p className="muted">
        No proposals have touched this CFB yet. When a chat turn suggests a change to it, the proposal appears here.
      </p>
    );
  }
  return (
    <ul className="plain stack" data-testid="cfb-proposals">
      {proposals.map((p) => (
        <li key={p.proposal_id} className="card">
          <div className="row">
            <Link href={`/proposals/${p.proposal_id}`}>{p.proposal_id}</Link>
            <span className={STATUS_BADGE[p.status]}>{p.status}</span>
            <span className="badge">{p.op}</span>
            <span className="muted">
              {RELATION[p.relation]}
              {p.action ? ` · ${p.action.replaceAll("_", " ")}` : ""} · {formatTs(p.created_ts)}
            </span>
          </div>
          <h3>{p.title}</h3>
        </li>
      ))}
    </ul>
  );
}

/** Below a CFB: its stats, a chart of its usage per day, and the proposals that touched it. */
export function CfbActivity({ cfbId }: { cfbId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.cfbs.activity.queryOptions({ cfb_id: cfbId, days: DAYS }, { retry: false }));
  return (
    <QueryState query={query} what={`the activity of ${cfbId}`} loading="Loading usage and proposals…" retry>
      {(activity) => <Activity activity={activity} />}
    </QueryState>
  );
}

function Activity({ activity }: { activity: TActivity }) {
  const { stats, usage_by_day, proposals } = activity;
  const totals = usageTotals(usage_by_day);
  const used = totals.injected + totals.used + totals.ignored > 0;
  return (
    <>
      <section className="stack cfb-activity" aria-labelledby="cfb-usage-heading">
        <h2 id="cfb-usage-heading">Usage</h2>
        <div className="grid cfb-usage">
          <Stats stats={stats} />
          {used ? (
            <CfbUsageChart days={usage_by_day} />
          ) : (
            <p className="muted" data-testid="cfb-usage-empty">
              Not used in the last {DAYS} days: it is used when a chat turn injects it.
            </p>
          )}
        </div>
      </section>
      <section className="stack cfb-activity" aria-labelledby="cfb-proposals-heading">
        <h2 id="cfb-proposals-heading">Proposals</h2>
        <Proposals proposals={proposals} />
      </section>
    </>
  );
}
