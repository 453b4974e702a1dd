"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { isNetworkError } from "@/lib/trpc-errors";

/**
 * "The server is not reachable": shown while the page's last calls failed without an answer (a
 * stopped or restarting server, a lost network), instead of each panel's raw "Failed to fetch";
 * the page's queries keep retrying on their own, and Retry asks again at once. Gone with the
 * first answer.
 */
export function ConnectionBanner() {
  const queryClient = useQueryClient();
  const [down, setDown] = useState(false);
  useEffect(() => {
    const watch = (error: unknown, ok: boolean) => {
      if (ok) setDown(false);
      else if (isNetworkError(error)) setDown(true);
    };
    const queries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== "updated") return;
      const { status, error, fetchStatus } = event.query.state;
      if (fetchStatus === "idle") watch(error, status === "success");
    });
    const mutations = queryClient.getMutationCache().subscribe((event) => {
      const state = event.mutation?.state;
      if (state && (state.status === "success" || state.status === "error"))
        watch(state.error, state.status === "success");
    });
    return () => {
      queries();
      mutations();
    };
  }, [queryClient]);
  if (!down) return null;
  return (
    <div className="notice connection-banner row" role="alert" data-testid="connection-banner">
      <span>The server is not reachable. Retrying…</span>
      <button type="button" onClick={() => void queryClient.refetchQueries({ type: "active" })}>
        Retry now
      </button>
    </div>
  );
}
