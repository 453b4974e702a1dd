"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";

/** Refreshes the queue and the knowledge list: what a decision, or its undo, changes. */
export function useRefreshDecisions(): () => Promise<void> {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.cfbs.pathKey() }),
    ]);
  };
}

/** Promote mutation that refreshes the queue and the knowledge list when a decision lands. */
export function usePromote() {
  const trpc = useTRPC();
  const refresh = useRefreshDecisions();
  return useMutation(trpc.promotion.promote.mutationOptions({ onSettled: refresh }));
}
