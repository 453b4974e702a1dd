import { infiniteQueryOptions, type QueryKey } from "@tanstack/react-query";

/**
 * Options for a list paged by `cursor` / `next_cursor` whose input schema is strict: tRPC's
 * infiniteQueryOptions adds a `direction` field to the input, which such a schema refuses, so
 * these pages are fetched by hand (`fetchPage(cursor)`) under the procedure's infinite key.
 */
export function cursorPages<TPage extends { next_cursor: string | null }>(
  queryKey: QueryKey,
  fetchPage: (cursor: string | undefined) => Promise<TPage>,
) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (page: TPage) => page.next_cursor ?? undefined,
  });
}
