"use client";
import { MAX_BATCH_CALLS, MAX_URL_BYTES } from "@solserver/contracts";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { type ReactNode, useState } from "react";
import { redirectToSignIn } from "@/components/session/session";
import { timedFetch } from "@/lib/timed-fetch";
import { TRPCProvider } from "@/lib/trpc";
import { CALL_TIMEOUT_MS, isClientError, isUnauthorized } from "@/lib/trpc-errors";
import type { AppRouter } from "@/server/trpc/root";

/** Any call answered UNAUTHORIZED (no session, or it expired) sends the browser to sign in. */
function onError(error: unknown) {
  if (isUnauthorized(error)) redirectToSignIn();
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError }),
        mutationCache: new MutationCache({ onError }),
        defaultOptions: {
          // A 4xx (signed out, forbidden, bad input) will not change on a retry; a 5xx might.
          queries: { staleTime: 5_000, retry: (failures, error) => !isClientError(error) && failures < 1 },
        },
      }),
  );
  // Batches stay within the server's request limits (calls per batch, URL length) by splitting.
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: "/api/trpc",
          maxItems: MAX_BATCH_CALLS,
          maxURLLength: MAX_URL_BYTES / 2,
          // A server that never answers (paused, overloaded) ends a pending button with a message.
          fetch: timedFetch(CALL_TIMEOUT_MS),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
