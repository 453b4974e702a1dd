"use client";
import { decidedMessage } from "@solserver/contracts";
import { useMutationState, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { trpcCode } from "@/lib/trpc-errors";

// The queue refreshes on its own, so a card can leave it while someone looks at it: another
// editor decided it, or a decision here on a twin folded it. A card never just vanishes (issue
// 19): each one that leaves without a decision made on this page is named above the queue with
// the reason, read from the proposal itself, until it is dismissed.

/**
 * The proposals that were on screen and are no longer, for the same filters (`view`), leaving
 * out those decided from this page (their card said so). Cleared when the filters change.
 */
export function useDepartedCards(view: string, shown: readonly string[] | undefined) {
  const trpc = useTRPC();
  const decidedHere = useMutationState({
    filters: { mutationKey: trpc.promotion.promote.mutationKey(), status: "success" },
    select: (m) => (m.state.variables as { proposal_id?: string } | undefined)?.proposal_id ?? "",
  });
  const previous = useRef<{ view: string; ids: readonly string[] } | null>(null);
  const [departed, setDeparted] = useState<string[]>([]);
  const key = shown?.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `shown`, compared by value
  useEffect(() => {
    if (!shown) return;
    const before = previous.current;
    previous.current = { view, ids: shown };
    if (!before || before.view !== view) {
      setDeparted([]);
      return;
    }
    const now = new Set(shown);
    const here = new Set(decidedHere);
    const gone = before.ids.filter((id) => !now.has(id) && !here.has(id));
    if (gone.length > 0) setDeparted((list) => [...list, ...gone.filter((id) => !list.includes(id))]);
  }, [view, key]);
  return {
    departed,
    dismiss: (id: string) => setDeparted((list) => list.filter((x) => x !== id)),
  };
}

/** The cards that left the queue while the reviewer looked, each with why. */
export function DepartedNotices({ departed, dismiss }: { departed: readonly string[]; dismiss: (id: string) => void }) {
  if (departed.length === 0) return null;
  return (
    <section className="stack" aria-label="Changed while you were looking" aria-live="polite">
      {departed.map((id) => (
        <DepartedNotice key={id} proposalId={id} onDismiss={() => dismiss(id)} />
      ))}
    </section>
  );
}

/** Why a card left the queue, in the server's words: who decided it what and when. */
function DepartedNotice({ proposalId, onDismiss }: { proposalId: string; onDismiss: () => void }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.proposals.get.queryOptions({ proposal_id: proposalId }, { retry: false }));
  const proposal = query.data;
  // Still a pending lead: it only moved (a page boundary), nothing to explain.
  const moved = proposal?.status === "pending" && proposal.twin_of_id === null;
  useEffect(() => {
    if (moved) onDismiss();
  }, [moved, onDismiss]);
  if (moved || (!proposal && !query.error)) return null;
  const reason = proposal
    ? proposal.status === "pending"
      ? `proposal ${proposalId} is now grouped under its twin ${proposal.twin_of_id}`
      : decidedMessage({ ...proposal, final_cfb_id: proposal.promotion?.final_cfb_id ?? null })
    : trpcCode(query.error) === "NOT_FOUND"
      ? `proposal ${proposalId} no longer exists`
      : `proposal ${proposalId} left the queue (${query.error?.message})`;
  return (
    <div className="notice row wrap" data-testid={`departed-${proposalId}`}>
      <span>
        {reason.charAt(0).toUpperCase()}
        {reason.slice(1)}.
      </span>
      {proposal ? <Link href={`/proposals/${proposalId}`}>Open {proposalId}</Link> : null}
      <button type="button" onClick={onDismiss} aria-label={`Dismiss the note on ${proposalId}`}>
        Dismiss
      </button>
    </div>
  );
}
