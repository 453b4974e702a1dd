"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { QueryError } from "./require-session";

export function CfbDetail({ cfbId }: { cfbId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.cfbs.get.queryOptions({ cfb_id: cfbId }, { retry: false }));
  if (query.isPending) return <p className="muted">Loading {cfbId}…</p>;
  if (query.error) return <QueryError error={query.error} what={cfbId} />;
  const cfb = query.data;
  return (
    <article className="panel stack">
      <div className="row">
        <span className="badge">{cfb.kind}</span>
        <span className="muted">{cfb.cfb_id}</span>
        <span className="muted">v{cfb.version}</span>
      </div>
      <h1 style={{ margin: 0 }}>{cfb.title}</h1>
      <p>{cfb.summary}</p>
      {cfb.text ? <p className="reply">{cfb.text}</p> : null}
      <dl className="meta">
        <dt>Domain</dt>
        <dd>{cfb.domain}</dd>
        <dt>Confidence</dt>
        <dd>{cfb.confidence.toFixed(2)}</dd>
        <dt>Trust tier</dt>
        <dd>{cfb.trust_tier}</dd>
        <dt>Tags</dt>
        <dd>{cfb.tags.join(", ") || "—"}</dd>
        <dt>Entities</dt>
        <dd>{cfb.entities.join(", ") || "—"}</dd>
        <dt>Sources</dt>
        <dd>{cfb.source_refs.join(", ") || "—"}</dd>
        <dt>Updated</dt>
        <dd>{new Date(cfb.updated_ts).toLocaleString()}</dd>
      </dl>
      <h2>History</h2>
      <ol>
        {cfb.revisions.map((r) => (
          <li key={r.version}>
            v{r.version} {r.change_kind} · {new Date(r.created_ts).toLocaleString()}
            {r.promotion_id ? ` · ${r.promotion_id}` : ""}
          </li>
        ))}
      </ol>
    </article>
  );
}
