"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/lib/trpc";
import { CommentItem } from "../review/proposal-discussion";

/**
 * What reviewers said about this thread's proposals (comments, requests for changes, rejection
 * reasons), so the person who proposed them sees it where they work. Nothing when there is none.
 */
export function ThreadNotes({ threadId }: { threadId: string }) {
  const trpc = useTRPC();
  const notes = useQuery(trpc.proposals.comments.queryOptions({ thread_id: threadId }));
  const items = notes.data?.items ?? [];
  if (items.length === 0) return null;
  const byProposal = new Map<string, typeof items>();
  for (const c of items) byProposal.set(c.proposal_id, [...(byProposal.get(c.proposal_id) ?? []), c]);
  return (
    <section className="panel stack" aria-labelledby="notes-heading" data-testid="thread-notes">
      <h2 id="notes-heading">Review notes on your proposals</h2>
      {[...byProposal.entries()].map(([proposalId, list]) => (
        <div key={proposalId} className="stack">
          <Link href={`/proposals/${proposalId}`}>Proposal {proposalId}</Link>
          <ul className="plain stack">
            {list.map((c) => (
              <CommentItem key={c.comment_id} c={c} />
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
