"use client";
import type { ReactNode } from "react";
import { errorText } from "@/lib/trpc-errors";

/** An error line screen readers announce: "<what>: <message>". Renders nothing without an error. */
export function ErrorAlert({
  what,
  error,
}: {
  what?: string;
  error: { message: string } | null | undefined;
}): ReactNode {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {what ? `${what}: ` : ""}
      {errorText(error)}
    </p>
  );
}

/** The "Load more" button of a paged (infinite) query, shown while there is a next page. */
export function LoadMore({
  query,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}): ReactNode {
  if (!query.hasNextPage) return null;
  return (
    <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
      {query.isFetchingNextPage ? "Loading…" : "Load more"}
    </button>
  );
}
