"use client";
import type { TProposalComment } from "@solserver/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { formatTs } from "../ui/format";
import { ErrorAlert } from "../ui/ui";

const KIND_WORDS: Record<TProposalComment["kind"], string> = {
  comment: "commented",
  request_changes: "requested changes",
  reject_reason: "rejected it",
};

/** One note: who, what kind, when, and the words. */
export function CommentItem({ c }: { c: TProposalComment }) {
  return (
    <li className={`comment ${c.kind}`} data-testid="comment">
      <div className="muted">
        <strong>{c.author ? c.author.name || c.author.email : "a deleted account"}</strong> {KIND_WORDS[c.kind]} ·{" "}
        {formatTs(c.created_ts)}
      </div>
      <p className="flush">{c.body}</p>
    </li>
  );
}

/**
 * A proposal's discussion: comments, requests for changes and rejection reasons, oldest first,
 * and a box to add one. Its proposer sees the same notes in their thread and can answer here.
 */
export function ProposalDiscussion({
  proposalId,
  canRequestChanges,
}: {
  proposalId: string;
  /** A Jam editor on a pending proposal. */
  canRequestChanges: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const comments = useQuery(trpc.proposals.comments.queryOptions({ proposal_id: proposalId }));
  const [body, setBody] = useState("");
  const add = useMutation(
    trpc.proposals.comment.mutationOptions({
      onSuccess: async () => {
        setBody("");
        await queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() });
      },
    }),
  );
  const send = (kind: "comment" | "request_changes") => (event?: FormEvent) => {
    event?.preventDefault();
    if (body.trim()) add.mutate({ proposal_id: proposalId, kind, body: body.trim() });
  };
  const items = comments.data?.items ?? [];
  return (
    <section className="panel stack" aria-labelledby="discussion-heading" data-testid="discussion">
      <h2 id="discussion-heading">Discussion</h2>
      <ErrorAlert what="Could not load the discussion" error={comments.error} />
      {items.length === 0 && comments.isSuccess ? <p className="muted">No comments yet.</p> : null}
      <ul className="plain stack">
        {items.map((c) => (
          <CommentItem key={c.comment_id} c={c} />
        ))}
      </ul>
      <form className="stack" onSubmit={send("comment")}>
        <label className="field">
          <span>Add a note</span>
          <textarea
            rows={3}
            maxLength={4000}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) send("comment")(e);
            }}
          />
        </label>
        <div className="row">
          <button type="submit" disabled={add.isPending || !body.trim()}>
            Comment
          </button>
          {canRequestChanges ? (
            <button type="button" disabled={add.isPending || !body.trim()} onClick={() => send("request_changes")()}>
              Request changes
            </button>
          ) : null}
        </div>
        <ErrorAlert what="Could not save the note" error={add.error} />
      </form>
    </section>
  );
}
