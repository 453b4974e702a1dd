"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";

export function CfbList() {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const query = useQuery(
    trpc.cfbs.list.queryOptions({ limit: 100, ...(search.trim() ? { query: search.trim() } : {}) }),
  );
  return (
    <section className="panel stack" aria-labelledby="cfbs-heading">
      <h2 id="cfbs-heading">Knowledge (CFBs)</h2>
      <input
        type="search"
        placeholder="Filter by title or summary"
        aria-label="Filter CFBs"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {query.isPending ? <p className="muted">Loading…</p> : null}
      {query.error ? (
        <p className="error" role="alert">
          {query.error.message}
        </p>
      ) : null}
      {query.isSuccess && query.data.items.length === 0 ? (
        <p className="muted">No CFBs match. Approve a proposal to create one.</p>
      ) : null}
      <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }} data-testid="cfb-list">
        {query.data?.items.map((cfb) => (
          <li key={cfb.cfb_id} className="card">
            <div className="row">
              <Link href={`/cfbs/${cfb.cfb_id}`}>{cfb.cfb_id}</Link>
              <span className="badge">{cfb.kind}</span>
              <span className="muted">{cfb.domain}</span>
            </div>
            <h3>{cfb.title}</h3>
            <p className="muted">{cfb.summary}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
