"use client";
import { useMutation } from "@tanstack/react-query";
import { type TRouterOutputs, useTRPC } from "@/lib/trpc";
import { formatTs } from "../ui/format";
import { ErrorAlert } from "../ui/ui";
import { useRefreshDecisions } from "./use-promote";

// Undoing a decision on the proposal page: a Jam editor reopens it (pending again, decided like
// any other; an approval's CFBs put back as they were), and the page shows the decisions that
// were reopened, so the history stays readable.

type TEarlierDecision = TRouterOutputs["proposals"]["review"]["proposal"]["earlier_decisions"][number];

/** Reopen for review: shown when the server allows it (`review.reopen`). Not costly, so it does not ask. */
export function ReopenButton({
  proposalId,
  approved,
  onReopened,
}: {
  proposalId: string;
  /** An approval: reopening it also puts back the CFBs it wrote. */
  approved: boolean;
  onReopened: () => void;
}) {
  const trpc = useTRPC();
  const refresh = useRefreshDecisions();
  const reopen = useMutation(
    trpc.proposals.reopen.mutationOptions({
      onSuccess: async () => {
        onReopened();
        await refresh();
      },
    }),
  );
  return (
    <div className="stack">
      <div className="row">
        <button type="button" onClick={() => reopen.mutate({ proposal_id: proposalId })} disabled={reopen.isPending}>
          {reopen.isPending ? "Reopening…" : approved ? "Undo approval" : "Reopen for review"}
        </button>
        <span className="muted">
          {approved
            ? "Back to pending; the CFBs it wrote go back as they were, the approval stays in its history."
            : "Back to pending; the rejection stays in its history."}
        </span>
      </div>
      <ErrorAlert what="Could not reopen" error={reopen.error} />
    </div>
  );
}

const DONE: Record<TEarlierDecision["action"], string> = {
  approve_create: "approved as new",
  approve_update: "approved as an update",
  edit_then_approve: "approved with edits",
  reject: "rejected",
};

/** The decisions reopened since, oldest first. */
export function EarlierDecisions({ decisions }: { decisions: readonly TEarlierDecision[] }) {
  if (decisions.length === 0) return null;
  return (
    <ul className="plain muted" data-testid="earlier-decisions" aria-label="Earlier decisions">
      {decisions.map((d) => (
        <li key={d.promotion_id}>
          {DONE[d.action]} by a {d.editor === "jam" ? "Jam editor" : "user"} on {formatTs(d.created_ts)} ·{" "}
          {d.promotion_id} · reopened on {formatTs(d.reopened_ts)}
        </li>
      ))}
    </ul>
  );
}
