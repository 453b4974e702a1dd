"use client";
import type { TGateEvaluationView, TGateStatus } from "@solserver/contracts";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { cursorPages } from "@/lib/cursor-pages";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import { DataTable } from "../ui/data-table";
import { formatTs } from "../ui/format";
import { hasNoItems, QueryState } from "../ui/query-state";
import { LoadMore } from "../ui/ui";
import { CompareForm } from "./gate-compare";
import { GateBadge, PolicyLines } from "./gate-words";

const PAGE = 25;
const STATUSES = ["ALLOW", "WARN", "BLOCK"] as const;
function Origin({ e }: { e: TGateEvaluationView }) {
  if (e.source === "api") return <span>{e.label ?? <span className="muted">API comparison</span>}</span>;
  return (
    <span>
      {e.thread_id ? <Link href={`/threads/${e.thread_id}`}>a chat turn</Link> : "a chat turn"}{" "}
      <span className="muted">
        attempt {e.attempt_n} · {e.delivered ? "delivered" : "not delivered"}
      </span>
    </span>
  );
}

/** Recent output-gate decisions (turn attempts and API comparisons), newest first, with reasons. */
export function GateEvaluations() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<TGateStatus | "">("");
  // Turn decisions (the pipeline's, per model attempt) and comparisons made by hand or over the
  // API are different questions: listed apart, so a test comparison never reads as production.
  const [source, setSource] = useState<"turn" | "api">("turn");
  const input = { limit: PAGE, source, ...(status ? { status } : {}) };
  const query = useInfiniteQuery(
    cursorPages(trpc.gate.list.infiniteQueryKey(input), (cursor) =>
      client.gate.list.query({ ...input, ...(cursor ? { cursor } : {}) }),
    ),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.gate.list.infiniteQueryKey() });
  return (
    <div className="stack">
      <section className="panel stack" aria-labelledby="gate-heading">
        <div className="row spread">
          <h2 id="gate-heading">Gate decisions</h2>
          <label className="row">
            <span className="muted">Decision</span>
            <select
              className="inline"
              aria-label="Decision"
              value={status}
              onChange={(e) => setStatus(e.target.value as TGateStatus | "")}
            >
              <option value="">all</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        </div>
        <fieldset className="tabs" aria-label="Source">
          <button type="button" aria-pressed={source === "turn"} onClick={() => setSource("turn")}>
            Chat turns
          </button>
          <button type="button" aria-pressed={source === "api"} onClick={() => setSource("api")}>
            Comparisons (dashboard and API)
          </button>
        </fieldset>
        <p className="muted">
          Every model attempt is checked before it is delivered: PII and the output contract block; cost and drift
          against the thread's previous answer warn (not for acknowledgements such as &ldquo;ok thanks&rdquo;, whose
          answers are short by design).
        </p>
        <QueryState
          query={query}
          what="gate evaluations"
          loading="Loading evaluations…"
          isEmpty={hasNoItems}
          empty="No evaluations yet."
          refreshError="Could not load more"
        >
          {(data) => (
            <DataTable headers={["When", "Decision", "What", "Checks", "Reasons"]} stack testId="gate-list">
              <tbody>
                {data.pages
                  .flatMap((p) => p.items)
                  .map((e) => (
                    <tr key={e.evaluation_id} data-status={e.status}>
                      <td className="nowrap" data-label="When">
                        {formatTs(e.created_ts)}
                      </td>
                      <td data-label="Decision">
                        <GateBadge status={e.status} />
                        <div className="muted">
                          {e.mode}
                          {e.strict ? " · strict" : ""}
                        </div>
                      </td>
                      <td data-label="What">
                        <Origin e={e} />
                      </td>
                      <td data-label="Checks">
                        <PolicyLines policies={e.policies} />
                      </td>
                      <td className="details" data-label="Reasons">
                        {e.reasons.length > 0 ? e.reasons.join(" ") : <span className="muted">none</span>}
                        {e.reason_codes.length > 0 ? <div className="muted">{e.reason_codes.join(", ")}</div> : null}
                      </td>
                    </tr>
                  ))}
              </tbody>
            </DataTable>
          )}
        </QueryState>
        <LoadMore query={query} />
      </section>
      <CompareForm onDone={refresh} />
    </div>
  );
}
