"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { hasNoItems, QueryState } from "../ui/query-state";
import { LoadMore } from "../ui/ui";
import { useUrlSearch } from "../ui/url-search";
import { PrivateMarker } from "./cfb-visibility";
import { SemanticStatus } from "./semantic-status";

/** Live CFBs are those answers draw on; retired ones a Jam editor took out of use (restorable on their page). */
const STATES = [
  { state: "live", label: "In use" },
  { state: "retired", label: "Retired" },
] as const;

export function CfbList() {
  const trpc = useTRPC();
  const [search, changeSearch] = useUrlSearch();
  const [state, setState] = useState<(typeof STATES)[number]["state"]>("live");
  const [visibility, setVisibility] = useState<"" | "shared" | "private">("");
  const query = useInfiniteQuery(
    trpc.cfbs.list.infiniteQueryOptions(
      {
        limit: 50,
        state,
        ...(search.trim() ? { query: search.trim() } : {}),
        ...(visibility ? { visibility } : {}),
      },
      { getNextPageParam: (page) => page.next_cursor ?? undefined },
    ),
  );
  return (
    <section className="panel stack" aria-labelledby="cfbs-heading">
      <h1 id="cfbs-heading" className="page-title">
        Knowledge (CFBs)
      </h1>
      <SemanticStatus />
      <fieldset className="tabs" aria-label="CFB state">
        {STATES.map((s) => (
          <button key={s.state} type="button" aria-pressed={state === s.state} onClick={() => setState(s.state)}>
            {s.label}
          </button>
        ))}
      </fieldset>
      <input
        type="search"
        placeholder="Filter by title, summary or id (CFB-0003)"
        aria-label="Filter CFBs"
        value={search}
        onChange={(e) => changeSearch(e.target.value)}
      />
      <label className="row">
        Visibility
        <select value={visibility} onChange={(e) => setVisibility(e.target.value as typeof visibility)}>
          <option value="">All</option>
          <option value="shared">Shared</option>
          <option value="private">Private (awaiting endorsement)</option>
        </select>
      </label>
      <QueryState
        query={query}
        what="CFBs"
        isEmpty={hasNoItems}
        empty={state === "retired" ? "No retired CFBs match." : "No CFBs match. Approve a proposal to create one."}
        refreshError="Could not load CFBs"
      >
        {(data) => (
          <>
            {data.pages[0]?.near_spellings ? (
              <p className="muted" role="status" data-testid="near-spellings">
                No CFB has every word of “{search.trim()}”; these have the closest spellings.
              </p>
            ) : null}
            <ul className="stack plain-list" data-testid="cfb-list">
              {data.pages
                .flatMap((p) => p.items)
                .map((cfb) => (
                  <li key={cfb.cfb_id} className="card">
                    <div className="row">
                      <Link href={`/cfbs/${cfb.cfb_id}`}>{cfb.cfb_id}</Link>
                      <span className="badge">{cfb.kind}</span>
                      <span className="muted">{cfb.domain}</span>
                      <PrivateMarker cfb={cfb} />
                    </div>
                    <h3>{cfb.title}</h3>
                    <p className="muted">{cfb.summary}</p>
                  </li>
                ))}
            </ul>
          </>
        )}
      </QueryState>
      <LoadMore query={query} />
    </section>
  );
}
