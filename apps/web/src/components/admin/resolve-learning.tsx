"use client";
import {
  type TJobStateName,
  type TResolveAgreement,
  type TResolveRuleView,
  ZResolveRefitResult,
} from "@solserver/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { DataTable } from "../ui/data-table";
import { formatTs } from "../ui/format";
import { QueryState } from "../ui/query-state";

/** How often the page looks at a refit under way. */
const REFIT_POLL_MS = 1_000;
/** A refit still queued after this says that no worker seems to be running. */
const UNCLAIMED_MS = 15_000;
const FINISHED = new Set<TJobStateName>(["completed", "failed", "cancelled"]);

const pct = (part: number, whole: number) => (whole === 0 ? "—" : `${Math.round((100 * part) / whole)} %`);

/**
 * Jam editors: how often resolve's decisions agreed with the reviewers' over the last decided
 * proposals, per domain, and where they did not; a refit of its thresholds on this knowledge
 * base's own decisions (kept only when it agrees better on a held-out third), and the rules so far
 * with a way back to any of them or to the shipped one.
 */
export function ResolveLearning() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [limit, setLimit] = useState(200);
  const agreement = useQuery(trpc.resolve.agreement.queryOptions({ limit }));
  const rules = useQuery(trpc.resolve.rules.queryOptions());
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.resolve.agreement.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.resolve.rules.queryKey() }),
    ]);
  const refit = useMutation(trpc.resolve.refit.mutationOptions());
  // The refit runs as a background job: follow it until it is done, then show its result.
  const jobId = refit.data?.job_id;
  const job = useQuery({
    ...trpc.jobs.get.queryOptions({ id: jobId ?? "" }),
    enabled: jobId !== undefined,
    refetchInterval: (q) =>
      q.state.error || (q.state.data && FINISHED.has(q.state.data.state)) ? false : REFIT_POLL_MS,
  });
  const finished = job.data && FINISHED.has(job.data.state) ? job.data : null;
  // (no worker took it: SOLSERVER_JOB_WORKERS=off with no `pnpm jobs work` running)
  const unclaimed =
    job.data?.state === "created" && Date.now() - new Date(job.data.created_ts).getTime() > UNCLAIMED_MS;
  const waiting = jobId !== undefined && !finished && !job.error;
  const result = finished ? ZResolveRefitResult.safeParse(finished.output) : null;
  const finishedId = finished?.id;
  useEffect(() => {
    // (a kept refit changes the agreement and the rules)
    if (finishedId) void queryClient.invalidateQueries({ queryKey: trpc.resolve.pathKey() });
  }, [finishedId, queryClient, trpc]);
  const activate = useMutation(trpc.resolve.activate.mutationOptions({ onSuccess: refresh }));
  return (
    <section className="panel stack" aria-labelledby="resolve-heading">
      <h1 id="resolve-heading" className="page-title">
        Resolve and the reviewers
      </h1>
      <p className="muted">
        Every decided proposal is an example: resolve said update, new or merge, and a reviewer approved it as an update
        of a CFB, as new, or rejected it. Proposals resolve sent to review are counted apart.
      </p>
      <label className="row">
        Last
        <select value={limit} onChange={(e) => setLimit(Number(e.target.value))} aria-label="Decisions looked at">
          {[50, 200, 1000].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        decided proposals
      </label>
      <QueryState query={agreement} what="the agreement">
        {(a) => (
          <div className="stack" data-testid="resolve-agreement">
            <p>
              Agreed with the reviewers on <strong>{pct(a.agreed, a.compared)}</strong> of {a.compared} decisions it
              took ({a.reviewed} sent to review, {a.decided} decided in all). Deciding now:{" "}
              {a.active_rule_id ?? "the shipped rule"}.
            </p>
            <AgreementTables agreement={a} />
          </div>
        )}
      </QueryState>
      <div className="row">
        <button type="button" onClick={() => refit.mutate({})} disabled={refit.isPending || waiting}>
          {refit.isPending || waiting ? "Refitting…" : "Refit on these decisions"}
        </button>
      </div>
      {waiting ? (
        <p role="status" className="muted" data-testid="refit-result">
          Refitting in the background ({job.data?.state === "active" ? "running" : "queued"}, job {jobId})…
          {unclaimed ? " No process has taken it yet: is a job worker running? (Background jobs)" : ""}
        </p>
      ) : null}
      {job.error ? (
        <p role="alert" className="badge warn">
          Could not follow the refit: {job.error.message}
        </p>
      ) : null}
      {result?.success ? (
        <p role="status" className={result.data.kept ? "badge ok" : "muted"} data-testid="refit-result">
          {result.data.message} (fitted on {result.data.fitted_on}, checked on {result.data.checked_on}).
        </p>
      ) : null}
      {finished && finished.state !== "completed" ? (
        <p role="alert" className="badge warn" data-testid="refit-result">
          The refit failed: {finished.error ?? finished.state}
        </p>
      ) : null}
      {refit.error ? (
        <p role="alert" className="badge warn">
          {refit.error.message}
        </p>
      ) : null}
      <QueryState query={rules} what="the rules">
        {(list) =>
          list.length === 0 ? (
            <p className="muted">No refitted rule yet: the shipped rule decides.</p>
          ) : (
            <RuleTable rules={list} onUse={(ruleId) => activate.mutate({ rule_id: ruleId })} />
          )
        }
      </QueryState>
    </section>
  );
}

/** Agreement per domain, and the proposals where resolve and the reviewer disagreed. */
function AgreementTables({ agreement }: { agreement: TResolveAgreement }) {
  return (
    <>
      {agreement.per_domain.length > 0 ? (
        <DataTable headers={["domain", "agreed", "compared", "sent to review"]} label="Agreement per domain">
          <tbody>
            {agreement.per_domain.map((d) => (
              <tr key={d.domain}>
                <td>{d.domain || "—"}</td>
                <td>{pct(d.agreed, d.compared)}</td>
                <td>{d.compared}</td>
                <td>{d.reviewed}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : null}
      {agreement.disagreements.length > 0 ? (
        <DataTable
          headers={["proposal", "domain", "resolve said", "the reviewer did", "when"]}
          label="Where resolve and the reviewer disagreed"
        >
          <tbody>
            {agreement.disagreements.map((d) => (
              <tr key={d.proposal_id}>
                <td>
                  <Link href={`/proposals/${d.proposal_id}`}>{d.proposal_id}</Link>
                </td>
                <td>{d.domain}</td>
                <td>{d.resolve}</td>
                <td>{d.reviewer}</td>
                <td>{formatTs(d.decided_ts)}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : null}
    </>
  );
}

/** The refitted rules, the one deciding marked, each with a way to decide with it (null: the shipped rule). */
function RuleTable({ rules, onUse }: { rules: readonly TResolveRuleView[]; onUse: (ruleId: string | null) => void }) {
  return (
    <DataTable headers={["rule", "when", "agreement before → after", "bands (low / high)", ""]} label="Refitted rules">
      <tbody>
        {rules.map((r) => (
          <tr key={r.rule_id}>
            <td>
              {r.rule_id}
              {r.active ? <span className="badge ok"> deciding</span> : null}
            </td>
            <td>{formatTs(r.created_ts)}</td>
            <td>
              {Math.round(r.agreement_before * 100)} % → {Math.round(r.agreement_after * 100)} %
            </td>
            <td>
              {r.rule.bands.low} / {r.rule.bands.high}
            </td>
            <td>
              {r.active ? (
                <button type="button" onClick={() => onUse(null)}>
                  Back to the shipped rule
                </button>
              ) : (
                <button type="button" onClick={() => onUse(r.rule_id)}>
                  Use this rule
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
