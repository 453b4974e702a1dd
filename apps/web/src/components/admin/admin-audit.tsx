"use client";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { cursorPages } from "@/lib/cursor-pages";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import { DataTable } from "../ui/data-table";
import { formatTs } from "../ui/format";
import { hasNoItems, QueryState } from "../ui/query-state";
import { LoadMore } from "../ui/ui";
import { ACTION_WORDS, csvField, detailLines, targetHref, VIA_WORDS } from "./audit-words";

const PAGE = 50;
const TARGETS = ["proposal", "cfb", "token", "user", "schedule"] as const;
type TTarget = (typeof TARGETS)[number];

/** The most rows one CSV export holds (pages of 100). */
const EXPORT_MAX = 10_000;

/** Jam editors: who did what to which CFB, proposal, token, account or schedule, newest first. */
export function AdminAudit() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [target, setTarget] = useState<TTarget | "">("");
  const input = { limit: PAGE, ...(target ? { target_type: target } : {}) };
  const query = useInfiniteQuery(
    cursorPages(trpc.audit.list.infiniteQueryKey(input), (cursor) =>
      client.audit.list.query({ ...input, ...(cursor ? { cursor } : {}) }),
    ),
  );
  // Account ids in targets and details read as emails.
  const users = useQuery(trpc.users.list.queryOptions());
  const emails = new Map((users.data?.items ?? []).map((u) => [u.id, u.email]));
  const nameOf = (id: string) => emails.get(id);
  const [exporting, setExporting] = useState<string | null>(null);

  /** Every row under the current filter (up to EXPORT_MAX) as a CSV download. */
  async function exportCsv() {
    const rows = [["when", "who", "via", "action", "target type", "target", "details"]];
    let cursor: string | undefined;
    do {
      const page = await client.audit.list.query({ ...input, limit: 100, ...(cursor ? { cursor } : {}) });
      for (const e of page.items)
        rows.push([
          e.created_ts,
          e.actor_email,
          e.via,
          e.action,
          e.target_type,
          e.target_type === "user" ? (nameOf(e.target_id) ?? e.target_id) : e.target_id,
          detailLines(e.details, nameOf).join("; "),
        ]);
      setExporting(`Exported ${rows.length - 1} rows…`);
      cursor = page.next_cursor ?? undefined;
    } while (cursor && rows.length - 1 < EXPORT_MAX);
    const blob = new Blob([`${rows.map((r) => r.map(csvField).join(",")).join("\r\n")}\r\n`], { type: "text/csv" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `solserver-audit${target ? `-${target}` : ""}.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
    setExporting(`Exported ${rows.length - 1} rows${cursor ? ` (the first ${EXPORT_MAX})` : ""}.`);
  }
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
        <button type="button" onClick={() => void exportCsv()} disabled={exporting?.endsWith("…") === true}>
          Export CSV
        </button>
      </div>
      <p role="status" className="muted">
        {exporting ?? ""}
      </p>
      <QueryState
        query={query}
        what="the audit log"
        isEmpty={hasNoItems}
        empty="Nothing recorded yet."
        refreshError="Could not load more"
      >
        {(data) => (
          <DataTable headers={["When", "Who", "Action", "Target", "Details"]} stack testId="audit-list">
            <tbody>
              {data.pages
                .flatMap((p) => p.items)
                .map((e) => (
                  <tr key={e.id}>
                    <td className="nowrap" data-label="When">
                      {formatTs(e.created_ts)}
                    </td>
                    <td data-label="Who">
                      {e.actor_email} <span className="muted">{VIA_WORDS[e.via] ?? `via ${e.via}`}</span>
                    </td>
                    <td data-label="Action" title={e.action}>
                      {ACTION_WORDS[e.action] ?? e.action}
                    </td>
                    <td data-label="Target">
                      <AuditTarget type={e.target_type} id={e.target_id} nameOf={nameOf} />
                    </td>
                    <td className="details" data-label="Details">
                      {detailLines(e.details, nameOf).map((line) => (
                        <div key={line}>{line}</div>
                      ))}
                    </td>
                  </tr>
                ))}
            </tbody>
          </DataTable>
        )}
      </QueryState>
      <LoadMore query={query} />
    </section>
  );
}

/** A target by its name where it has one, linked to its page. */
function AuditTarget({ type, id, nameOf }: { type: string; id: string; nameOf: (id: string) => string | undefined }) {
  const label = type === "user" ? (nameOf(id) ?? "a deleted account") : id;
  const href = targetHref(type, id);
  return (
    <>
      <span className="muted">{type === "cfb" ? "CFB" : type} </span>
      {href ? <Link href={href}>{label}</Link> : label}
    </>
  );
}
