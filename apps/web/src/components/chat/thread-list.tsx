"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { cursorPages } from "@/lib/cursor-pages";
import { useTRPC, useTRPCClient } from "@/lib/trpc";
import { useMe } from "../session/session";
import { formatTs } from "../ui/format";
import { hasNoItems, QueryState } from "../ui/query-state";
import { LoadMore } from "../ui/ui";
import { useUrlSearch } from "../ui/url-search";

const PAGE = 50;

/** Threads the account may see: its own, or every thread for a Jam editor (with the owner). */
export function ThreadList() {
  const trpc = useTRPC();
  const me = useMe();
  const client = useTRPCClient();
  const [search, changeSearch] = useUrlSearch();
  const filter = search.trim() ? { query: search.trim().slice(0, 200) } : {};
  const query = useInfiniteQuery(
    cursorPages(trpc.threads.list.infiniteQueryKey({ limit: PAGE, ...filter }), (cursor) =>
      client.threads.list.query({ limit: PAGE, ...filter, ...(cursor ? { cursor } : {}) }),
    ),
  );
  const jam = me.data?.role === "jam";
  return (
    <section className="panel stack" aria-labelledby="threads-heading">
      <h1 id="threads-heading" className="page-title">
        {jam ? "All threads" : "Your threads"}
      </h1>
      <input
        type="search"
        placeholder={jam ? "Search by title, owner's email or thread id" : "Search by title or thread id"}
        aria-label="Search threads"
        value={search}
        onChange={(e) => changeSearch(e.target.value)}
      />
      <QueryState
        query={query}
        what="threads"
        isEmpty={hasNoItems}
        empty={
          filter.query ? (
            "No thread matches."
          ) : (
            <>
              No threads yet. Start one in the <Link href="/chat">chat</Link>.
            </>
          )
        }
      >
        {(data) => (
          <ul className="stack plain" data-testid="thread-list">
            {data.pages
              .flatMap((p) => p.items)
              .map((t) => (
                <li key={t.thread_id} className="card" data-thread-id={t.thread_id}>
                  <div className="row">
                    <Link href={`/threads/${encodeURIComponent(t.thread_id)}`}>{t.title || t.thread_id}</Link>
                    {jam ? <span className="badge">{t.owner_email ?? "no owner"}</span> : null}
                    {t.procedure_system_id ? <span className="badge">diagnosis: {t.procedure_system_id}</span> : null}
                    {t.owner_email === me.data?.email ? (
                      <Link href={`/chat?thread=${encodeURIComponent(t.thread_id)}`} className="push-right">
                        Continue in chat
                      </Link>
                    ) : null}
                  </div>
                  <p className="muted">updated {formatTs(t.updated_ts)}</p>
                </li>
              ))}
          </ul>
        )}
      </QueryState>
      <LoadMore query={query} />
    </section>
  );
}
