"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type TRouterOutputs, useTRPC } from "@/lib/trpc";
import { FieldDiff, shown } from "../review/field-diff";
import { DataTable } from "../ui/data-table";
import { QueryState } from "../ui/query-state";
import { CfbActivity } from "./cfb-activity";
import { CfbRepairActions, RetiredNotice, RevertButton } from "./cfb-repair";
import { CfbVisibility, PrivateMarker } from "./cfb-visibility";
import { TRUST_WORDS } from "./glossary";

export function CfbDetail({ cfbId }: { cfbId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.cfbs.get.queryOptions({ cfb_id: cfbId }, { retry: false }));
  return (
    <QueryState query={query} what={cfbId}>
      {(cfb) => <Cfb cfb={cfb} />}
    </QueryState>
  );
}

function Cfb({ cfb }: { cfb: TRouterOutputs["cfbs"]["get"] }) {
  return (
    <article className="panel stack">
      <div className="row">
        <span className="badge">{cfb.kind}</span>
        <span className="muted">{cfb.cfb_id}</span>
        <span className="muted">v{cfb.version}</span>
        {cfb.retired_ts ? <span className="badge warn">retired</span> : null}
        <PrivateMarker cfb={cfb} />
      </div>
      <RetiredNotice cfb={cfb} />
      {cfb.merged_into_cfb_id ? (
        <p className="badge warn" role="status">
          Merged into <Link href={`/cfbs/${cfb.merged_into_cfb_id}`}>{cfb.merged_into_cfb_id}</Link>: it holds this
          knowledge now.
        </p>
      ) : null}
      <h1 className="flush">{cfb.title}</h1>
      <p>{cfb.summary}</p>
      {cfb.text ? <p className="reply">{cfb.text}</p> : null}
      <CfbVisibility cfb={cfb} />
      <dl className="meta">
        <dt>Domain</dt>
        <dd>{cfb.domain}</dd>
        <dt>Confidence</dt>
        <dd>{cfb.confidence.toFixed(2)}</dd>
        <dt>Trust tier</dt>
        <dd title={cfb.trust_tier}>{TRUST_WORDS[cfb.trust_tier] ?? cfb.trust_tier}</dd>
        <dt>Tags</dt>
        <dd>{cfb.tags.join(", ") || "—"}</dd>
        <dt>Entities</dt>
        <dd>{cfb.entities.join(", ") || "—"}</dd>
        <dt>Sources</dt>
        <dd data-testid="cfb-sources">
          {cfb.source_refs.length === 0
            ? "—"
            : cfb.source_refs.map((ref, i) => {
                // A promotion records its proposal as "proposal:UP-0007": link it to its page.
                const proposal = /^proposal:(UP-\d+)$/.exec(ref)?.[1];
                return (
                  <span key={ref}>
                    {i > 0 ? ", " : ""}
                    {proposal ? <Link href={`/proposals/${proposal}`}>{ref}</Link> : ref}
                  </span>
                );
              })}
        </dd>
        <dt>Updated</dt>
        <dd>{new Date(cfb.updated_ts).toLocaleString()}</dd>
      </dl>
      <CfbRepairActions cfb={cfb} />
      <CfbActivity cfbId={cfb.cfb_id} />
      <h2>History</h2>
      <ol className="plain stack" data-testid="cfb-history">
        {cfb.revisions.map((r) => (
          <li key={r.version}>
            <div className="row">
              <span>
                v{r.version} {r.change_kind}
                {r.by ? ` by ${r.by}` : ""} · {new Date(r.created_ts).toLocaleString()}
                {r.proposal_id ? (
                  <>
                    {" "}
                    · from <Link href={`/proposals/${r.proposal_id}`}>proposal {r.proposal_id}</Link>
                  </>
                ) : null}
              </span>
              <RevertButton cfb={cfb} version={r.version} />
            </div>
            {r.changes.length > 0 ? (
              <DataTable headers={["Field", "Before", "After"]} className="diff" label={`Changes in v${r.version}`}>
                <tbody>
                  {r.changes.map((c) => (
                    <tr key={c.field}>
                      <td>
                        <code>{c.field}</code>
                      </td>
                      <td>{shown(c.before)}</td>
                      <td>
                        <FieldDiff before={c.before} after={c.after} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
            ) : null}
          </li>
        ))}
      </ol>
    </article>
  );
}
