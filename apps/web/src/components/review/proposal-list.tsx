"use client";
import type { TProposalQueueItem } from "@solserver/contracts";
import type { ReactNode } from "react";
import { ageOf, HELD_WORDS } from "../knowledge/glossary";

// The queue's dense view (issue 35): one line per proposal, as Linear and Langfuse list work to
// triage, beside the full card of the current one (proposal-queue.tsx renders that card). A line
// says what the main approval would do and why it is held, so a reviewer can sweep a hundred
// proposals and open only those that need a look.

/** What the main approval (A) would do, in a few words. */
function verdict(p: TProposalQueueItem): string {
  const a = p.actions;
  if (p.status !== "pending") return p.status;
  if (a.primary === "approve_create") return "new CFB";
  if (a.primary === "approve_update" && a.update) {
    return `${a.update.merge_cfb_id ? "merge into" : "update"} ${a.update.cfb_id} "${a.update.title}"`;
  }
  return a.allowed.length > 0 ? "reject only" : "no decision for you";
}

export function ProposalList({
  items,
  current,
  onPick,
  selection,
  detail,
}: {
  items: readonly TProposalQueueItem[];
  current: string | null;
  /** Makes a proposal the current one (click). */
  onPick: (id: string) => void;
  selection: { has: (id: string) => boolean; toggle: (id: string) => void };
  /** The current proposal's card, opened under its line (a narrow screen); null when shown beside the list. */
  detail: ReactNode;
}) {
  return (
    <ul className="plain proposal-list" data-testid="proposal-list" aria-label="Proposals">
      {items.map((p) => {
        const open = p.status === "pending" && p.actions.allowed.length > 0;
        const held = p.actions.held.map((h) => HELD_WORDS[h.code]);
        return (
          <li
            key={p.proposal_id}
            className="proposal-line"
            aria-current={p.proposal_id === current ? "true" : undefined}
            data-testid={`line-${p.proposal_id}`}
          >
            {open ? (
              <input
                type="checkbox"
                checked={selection.has(p.proposal_id)}
                onChange={() => selection.toggle(p.proposal_id)}
                aria-label={`Select "${p.title}"`}
              />
            ) : (
              <span className="checkbox-space" />
            )}
            <button type="button" className="line-pick" onClick={() => onPick(p.proposal_id)}>
              <span className="line-title">{p.title}</span>
              <span className="line-verdict muted">{verdict(p)}</span>
              {held.length > 0 ? (
                <span className="badge warn" title={p.actions.held.map((h) => h.note).join(" ")}>
                  held: {held.join(", ")}
                </span>
              ) : null}
              {p.twin_count > 0 ? (
                <span className="badge" title={`${p.twin_count + 1} proposals say this; one decision covers them`}>
                  {p.people > 1 ? `×${p.people} people` : `×${p.twin_count + 1}`}
                </span>
              ) : null}
              <span className="line-meta muted">
                {p.proposed_cfb.domain} ·{" "}
                {p.queue?.proposer ? `${p.queue.proposer.name || p.queue.proposer.email} · ` : ""}
                {ageOf(p.created_ts)}
              </span>
            </button>
            {p.proposal_id === current ? detail : null}
          </li>
        );
      })}
    </ul>
  );
}
