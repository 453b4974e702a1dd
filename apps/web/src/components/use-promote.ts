"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";

/** Promote mutation that refreshes the queue and the knowledge list when a decision lands. */
export function usePromote() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.promotion.promote.mutationOptions({
      onSettled: async () => {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.cfbs.pathKey() }),
        ]);
      },
    }),
  );
}
