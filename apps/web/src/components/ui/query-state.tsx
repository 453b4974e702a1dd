"use client";
import type { ReactNode } from "react";
import { errorText, isForbidden, isUnauthorized } from "@/lib/trpc-errors";
import { useRedirectOnUnauthorized } from "../session/session";
import { ErrorAlert } from "./ui";

/** What QueryState reads of a query: useQuery's and useInfiniteQuery's results both fit. */
type TQueryView<T> = {
  data: T | undefined;
  error: { message: string } | null;
  isFetching: boolean;
  refetch: () => unknown;
};

type TQueryStateProps<T> = {
  query: TQueryView<T>;
  /** What the query loads: "Could not load <what>: …", and "Loading <what>…" unless `loading` says otherwise. */
  what: string;
  loading?: ReactNode;
  /** Whether the data holds nothing to show; then `empty` is shown instead of `children`. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  /** With data on screen, a refetch (or the next page) that fails shows "<refreshError>: <message>" below it. */
  refreshError?: string;
  /** A "Try again" button under a first load that failed (for parts of a page that load on their own). */
  retry?: boolean;
  /** The data, once there is some. */
  children: (data: T) => ReactNode;
};

/**
 * A query's loading, error and empty states, said the same way on every page: "Loading …" until
 * the first answer; a first load that fails explains itself (signed out, no access, or the
 * server's message); then the data, or the line that says there is none; a later refresh that
 * fails keeps the data on screen and says so below it.
 */
export function QueryState<T>({
  query,
  what,
  loading,
  isEmpty,
  empty,
  refreshError,
  retry = false,
  children,
}: TQueryStateProps<T>): ReactNode {
  if (query.data === undefined) {
    if (!query.error) return <p className="muted">{loading ?? `Loading ${what}…`}</p>;
    if (!retry) return <QueryError error={query.error} what={what} />;
    return (
      <div className="stack">
        <QueryError error={query.error} what={what} />
        <div>
          <button type="button" onClick={() => query.refetch()} disabled={query.isFetching}>
            Try again
          </button>
        </div>
      </div>
    );
  }
  return (
    <>
      {isEmpty?.(query.data) ? <p className="muted">{empty}</p> : children(query.data)}
      {refreshError ? <ErrorAlert what={refreshError} error={query.error} /> : null}
    </>
  );
}

/** `isEmpty` for a list (`{ items }`) or a paged list (`{ pages: [{ items }] }`): no item at all. */
export function hasNoItems(data: { items: readonly unknown[] } | { pages: readonly { items: readonly unknown[] }[] }) {
  return "pages" in data ? data.pages.every((p) => p.items.length === 0) : data.items.length === 0;
}

/**
 * A failed query, explained: signed out (redirects), no access (FORBIDDEN), or the server's
 * message.
 */
function QueryError({ error, what }: { error: unknown; what: string }) {
  useRedirectOnUnauthorized(error);
  if (isUnauthorized(error)) return <p className="muted">You are signed out. Redirecting to sign-in…</p>;
  if (isForbidden(error)) {
    return (
      <section className="panel stack" role="alert" aria-labelledby="forbidden-heading">
        <h2 id="forbidden-heading">You don&rsquo;t have access</h2>
        <p>You don&rsquo;t have access to {what}.</p>
      </section>
    );
  }
  const message = error instanceof Error ? errorText(error) : String(error);
  return (
    <p className="error" role="alert">
      Could not load {what}: {message}
    </p>
  );
}
