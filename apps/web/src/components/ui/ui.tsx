"use client";
import type { ReactNode } from "react";
import { errorText } from "@/lib/trpc-errors";

/** An error line screen readers announce: "<what>: <message>". Renders nothing without an error. */
export function ErrorAlert({
  what,
  error,
  fields = {},
}: {
  what?: string;
  error: { message: string } | null | undefined;
  /** The form's labels for the API's field names, which lead its messages ("time_of_day: …" → "Time: …"). */
  fields?: Record<string, string>;
}): ReactNode {
  if (!error) return null;
  const text = errorText(error);
  const field = text.slice(0, Math.max(0, text.indexOf(": ")));
  return (
    <p className="error" role="alert">
      {what ? `${what}: ` : ""}
      {Object.hasOwn(fields, field) ? `${fields[field]}${text.slice(field.length)}` : text}
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
