"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import { formatTs } from "./format";
import { hasNoItems, QueryState } from "./query-state";
import { LoadMore } from "./ui";

const PAGE = 50;
const TARGETS = ["proposal", "cfb", "token", "user", "schedule"] as const;
type TTarget = (typeof TARGETS)[number];

function detailsText(details: unknown): string {
  if (details === null || details === undefined) return "";
  if (typeof details === "string") return details;
  try {
    return JSON.stringify(details);
  } catch {
    return String(details);
  }
}

/** Jam editors: who did what to which CFB, proposal, token, account or schedule, newest first. */
export function AdminAudit() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [target, setTarget] = useState<TTarget | "">("");
  const input = { limit: PAGE, ...(target ? { target_type: target } : {}) };
  // Paged by hand: tRPC's infiniteQueryOptions adds a `direction` field to the input, which
  // audit.list's strict schema refuses.
  const query = useInfiniteQuery({
    queryKey: trpc.audit.list.infiniteQueryKey(input),
    queryFn: ({ pageParam }) => client.audit.list.query({ ...input, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  return (
    <section className="panel stack" aria-labelledby="audit-heading">
      <div className="row spread">
        <h1 id="audit-heading" className="page-title">
          Audit log
        </h1>
        <label className="row">
          <span className="muted">Target</span>
          <select className="inline" value={target} onChange={(e) => setTarget(e.target.value as TTarget | "")}>
            <option value="">all</option>
            {TARGETS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryState
        query={query}
        what="the audit log"
        isEmpty={hasNoItems}
        empty="Nothing recorded yet."
        refreshError="Could not load more"
      >
        {(data) => (
          <div className="table-wrap">
            <table className="data" data-testid="audit-list">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Who</th>
                  <th>Action</th>
                  <th>Target</th>
                  <th>Details</th>
                </tr>
              </thead>
              <tbody>
                {data.pages
                  .flatMap((p) => p.items)
                  .map((e) => (
                    <tr key={e.id}>
                      <td className="nowrap">{formatTs(e.created_ts)}</td>
                      <td>
                        {e.actor_email} <span className="muted">via {e.via}</span>
                      </td>
                      <td className="nowrap">
                        <code>{e.action}</code>
                      </td>
                      <td>
                        {e.target_type} <span className="muted">{e.target_id}</span>
                      </td>
                      <td className="details">{detailsText(e.details)}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      <LoadMore query={query} />
    </section>
  );
}
