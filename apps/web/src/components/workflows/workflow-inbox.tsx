"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useId, useState } from "react";
import { type TRouterOutputs, useTRPC } from "@/lib/trpc";
import { trpcCode } from "@/lib/trpc-errors";
import { HELD_WORDS, heldSummary } from "../knowledge/glossary";
import { formatTs } from "../ui/format";
import { QueryState } from "../ui/query-state";
import { ErrorAlert } from "../ui/ui";
import { WorkflowFile } from "./workflow-file";
import {
  INBOX_INPUT,
  PhaseLine,
  statusText,
  type TWorkflowRunView,
  useRefreshWorkflows,
  WorkflowStatusBadge,
} from "./workflow-parts";

type TCheckpoint = NonNullable<TWorkflowRunView["checkpoint"]>;

function outcome(run: TWorkflowRunView, label: string): string {
  const where =
    run.status === "awaiting_decision"
      ? "it waits at its next checkpoint"
      : run.status === "failed"
        ? `it failed: ${run.error ?? "no message"}`
        : `it is ${statusText(run.status)}`;
  return `${run.run_id}: “${label}” decided; ${where}.`;
}

/**
 * One run waiting at a checkpoint: what it asks, the files it shows, and the decision. The
 * decision carries the version shown here; a run that moved on meanwhile is a conflict.
 */
function CheckpointCard({
  run,
  checkpoint,
  onDecided,
  onConflict,
}: {
  run: TWorkflowRunView;
  checkpoint: TCheckpoint;
  onDecided: (notice: string) => void;
  onConflict: (message: string) => void;
}) {
  const trpc = useTRPC();
  const refresh = useRefreshWorkflows();
  const id = useId();
  const [label, setLabel] = useState<string | null>(null);
  const [feedback, setFeedback] = useState("");
  // The plan's items a person toggled: left out (they stay in the queue), or for an item the plan
  // holds back, included all the same. Held items are out by default, the rest in.
  const [toggled, setToggled] = useState<ReadonlySet<string>>(new Set());
  const heldIds = new Set((checkpoint.plan ?? []).filter((p) => p.held.length > 0).map((p) => p.proposal_id));
  const excluded = [...toggled].filter((id) => !heldIds.has(id));
  const included = [...toggled].filter((id) => heldIds.has(id));
  const decide = useMutation(
    trpc.workflows.decide.mutationOptions({
      onSuccess: async (next, input) => {
        onDecided(outcome(next, input.label));
        await refresh();
      },
      onError: async (error) => {
        if (trpcCode(error) !== "CONFLICT") return;
        onConflict(error.message);
        await refresh();
      },
    }),
  );
  const option = checkpoint.options.find((o) => o.label === label);
  const phase = run.phases.find((p) => p.id === checkpoint.phase_id);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!option) return;
    const text = feedback.trim();
    decide.mutate({
      run_id: run.run_id,
      version: run.version,
      label: option.label,
      ...(option.with_feedback && text ? { feedback: text } : {}),
      ...(excluded.length > 0 ? { exclude: excluded } : {}),
      ...(included.length > 0 ? { include: included } : {}),
    });
  }

  return (
    <article
      className="card stack workflow-checkpoint"
      id={`checkpoint-${run.run_id}`}
      aria-labelledby={`${id}-prompt`}
      data-run-id={run.run_id}
    >
      <div className="row">
        <WorkflowStatusBadge status={run.status} />
        <strong>{run.name}</strong>
        <span className="muted">{run.run_id}</span>
        <span className="muted">phase {phase?.title ?? checkpoint.phase_id}</span>
        <span className="muted">
          started by {run.started_by ?? "unknown"} via {run.started_via}, {formatTs(run.created_ts)}
        </span>
      </div>
      <h3 id={`${id}-prompt`}>{checkpoint.prompt}</h3>
      <CheckpointTerms checkpoint={checkpoint} />
      <PhaseLine phases={run.phases} />
      {checkpoint.plan && checkpoint.plan.length > 0 ? (
        <PlanItems
          plan={checkpoint.plan}
          toggled={toggled}
          disabled={decide.isPending}
          onToggle={(proposalId) =>
            setToggled((prev) => {
              const next = new Set(prev);
              if (next.has(proposalId)) next.delete(proposalId);
              else next.add(proposalId);
              return next;
            })
          }
        />
      ) : null}
      {checkpoint.files.map((file) => (
        <WorkflowFile key={file.path} file={file} />
      ))}
      <form className="stack" onSubmit={submit}>
        <fieldset className="workflow-options" disabled={decide.isPending}>
          <legend>Your decision</legend>
          <div className="row">
            {checkpoint.options.map((o) => (
              <label key={o.label} className="row workflow-option">
                <input
                  type="radio"
                  name={`${id}-option`}
                  value={o.label}
                  checked={label === o.label}
                  onChange={() => setLabel(o.label)}
                />
                <span>{o.label}</span>
                {o.with_feedback ? <span className="muted">(with feedback)</span> : null}
              </label>
            ))}
          </div>
        </fieldset>
        {option?.with_feedback ? (
          <label className="field">
            <span>Feedback for “{option.label}” (optional)</span>
            <textarea
              rows={3}
              maxLength={10_000}
              value={feedback}
              disabled={decide.isPending}
              onChange={(e) => setFeedback(e.target.value)}
            />
          </label>
        ) : null}
        <div className="row">
          <button type="submit" className="primary" disabled={!option || decide.isPending || !checkpoint.can_decide}>
            {decide.isPending ? "Deciding…" : option ? `Confirm ${option.label}` : "Choose an option"}
          </button>
        </div>
        <ErrorAlert what="Could not decide" error={trpcCode(decide.error) === "CONFLICT" ? null : decide.error} />
      </form>
    </article>
  );
}

/** Who decides this checkpoint and what its timeout will do, when the definition says. */
function CheckpointTerms({ checkpoint }: { checkpoint: TCheckpoint }) {
  const who = checkpoint.assignees;
  if (!who && !checkpoint.deadline) return null;
  return (
    <p className="muted" data-testid="checkpoint-terms">
      {who ? (
        <span>
          Assigned to {"accounts" in who ? who.accounts.join(", ") : "every Jam editor"}
          {checkpoint.can_decide ? "" : ": you cannot decide it"}.{" "}
        </span>
      ) : null}
      {checkpoint.deadline ? (
        <span>
          If nobody decides by {formatTs(checkpoint.deadline)}, it {checkpoint.on_timeout ?? "times out"}.
        </span>
      ) : null}
    </p>
  );
}

/**
 * The plan a checkpoint offers per item, each with its target and what it says: uncheck what
 * should stay in the queue. Items whose approval needs a look are held back (unchecked, with the
 * reason, listed first): check one to promote it all the same. Ids link to their pages.
 */
function PlanItems({
  plan,
  toggled,
  disabled,
  onToggle,
}: {
  plan: NonNullable<TCheckpoint["plan"]>;
  toggled: ReadonlySet<string>;
  disabled: boolean;
  onToggle: (proposalId: string) => void;
}) {
  const chosen = (p: (typeof plan)[number]) => p.held.length > 0 === toggled.has(p.proposal_id);
  const held = plan.filter((p) => p.held.length > 0);
  const ordered = [...held, ...plan.filter((p) => p.held.length === 0)];
  return (
    <fieldset className="stack" disabled={disabled} data-testid="checkpoint-plan">
      <legend>
        What continuing promotes ({plan.filter(chosen).length} of {plan.length}): uncheck what should stay in the queue
      </legend>
      {held.length > 0 ? (
        <p className="badge warn" data-testid="plan-held">
          {held.length} held back until you check them: {heldSummary(held)}
        </p>
      ) : null}
      <ul className="plain stack">
        {ordered.map((p) => (
          <li key={p.proposal_id} className="stack plan-item" data-held={p.held.length > 0 || undefined}>
            <div className="row">
              <input
                type="checkbox"
                checked={chosen(p)}
                onChange={() => onToggle(p.proposal_id)}
                aria-label={`Promote ${p.title}`}
              />
              <Link href={`/proposals/${p.proposal_id}`}>{p.title}</Link>
              <span className="muted">
                {p.action === "approve_update" ? "update of " : "new CFB"}
                {p.target_cfb_id ? <Link href={`/cfbs/${p.target_cfb_id}`}>{p.target_cfb_id}</Link> : null}
                {p.target_title ? ` "${p.target_title}"` : null}
              </span>
            </div>
            {p.change ? <span className="muted">{p.change}</span> : null}
            {p.held.map((h) => (
              <span key={h.code} className="badge warn">
                {HELD_WORDS[h.code]}: {h.note}
              </span>
            ))}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** The runs of a list that wait at a checkpoint, each with it. */
function waiting(data: TRouterOutputs["workflows"]["list"]) {
  return data.items.flatMap((run) => (run.checkpoint ? [{ run, checkpoint: run.checkpoint }] : []));
}

/** Runs waiting for a person's decision, each with its checkpoint. */
export function WorkflowInbox() {
  const trpc = useTRPC();
  const inbox = useQuery(trpc.workflows.list.queryOptions(INBOX_INPUT));
  const [notice, setNotice] = useState<string | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  return (
    <section className="panel stack" aria-labelledby="inbox-heading" data-testid="checkpoint-inbox">
      <h2 id="inbox-heading">Checkpoints inbox</h2>
      <div role="status" className="workflow-live">
        {notice ? <p className="ok">{notice}</p> : null}
      </div>
      {conflict ? (
        <div className="stack conflict" role="alert">
          <p>
            <strong>This run moved on…</strong>
          </p>
          <p className="error">{conflict}</p>
          <p>The inbox now shows where each run stands: look at it again before you decide.</p>
          <div className="row">
            <button type="button" onClick={() => setConflict(null)}>
              Dismiss
            </button>
          </div>
        </div>
      ) : null}
      <QueryState
        query={inbox}
        what="the checkpoints inbox"
        loading="Loading checkpoints…"
        isEmpty={(data) => waiting(data).length === 0}
        empty="No run is waiting for a decision. Start the Umbra beat to review pending proposals."
        refreshError="Could not refresh the inbox"
      >
        {(data) =>
          waiting(data).map(({ run, checkpoint }) => (
            // Keyed by version too: a run back at a checkpoint starts with a fresh choice.
            <CheckpointCard
              key={`${run.run_id}@${run.version}`}
              run={run}
              checkpoint={checkpoint}
              onDecided={(text) => {
                setConflict(null);
                setNotice(text);
              }}
              onConflict={(message) => {
                setNotice(null);
                setConflict(message);
              }}
            />
          ))
        }
      </QueryState>
    </section>
  );
}
