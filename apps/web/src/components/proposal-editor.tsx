"use client";
import type { TEditorialOverrides, TProposal } from "@solserver/contracts";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/lib/trpc";

type TProposed = TProposal["proposed_cfb"];

const TITLE_MAX = 200;
const SUMMARY_MAX = 2000;
const TAG_MAX = 64;
const TAGS_MAX = 32;

/** "a, b ,, c" → ["a", "b", "c"] (empty entries dropped, duplicates kept once). */
export function splitTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

/** The overrides a Jam editor's form amounts to: only the fields that changed. */
export function editorialOverrides(
  original: Pick<TProposed, "title" | "summary">,
  form: { title: string; summary: string; tagsAdd: string; tagsRemove: string },
): TEditorialOverrides {
  const overrides: TEditorialOverrides = {};
  const title = form.title.trim();
  const summary = form.summary.trim();
  if (title !== original.title.trim()) overrides.title_edit = title;
  if (summary !== original.summary.trim()) overrides.summary_edit = summary;
  const add = splitTags(form.tagsAdd);
  const remove = splitTags(form.tagsRemove);
  if (add.length > 0) overrides.tags_add = add;
  if (remove.length > 0) overrides.tags_remove = remove;
  return overrides;
}

function problem(form: { title: string; summary: string; tagsAdd: string; tagsRemove: string }): string | null {
  if (!form.title.trim()) return "Title must not be empty.";
  if (form.title.trim().length > TITLE_MAX) return `Title must be at most ${TITLE_MAX} characters.`;
  if (!form.summary.trim()) return "Summary must not be empty.";
  if (form.summary.trim().length > SUMMARY_MAX) return `Summary must be at most ${SUMMARY_MAX} characters.`;
  for (const [label, text] of [
    ["Tags to add", form.tagsAdd],
    ["Tags to remove", form.tagsRemove],
  ] as const) {
    const tags = splitTags(text);
    if (tags.length > TAGS_MAX) return `${label}: at most ${TAGS_MAX} tags.`;
    const long = tags.find((t) => t.length > TAG_MAX);
    if (long) return `${label}: "${long.slice(0, 20)}…" is longer than ${TAG_MAX} characters.`;
  }
  return null;
}

type TEditorProps = {
  proposalId: string;
  /** The proposed CFB when the caller already has it (queue items); else it is fetched. */
  proposed: TProposed | undefined;
  pending: boolean;
  onCancel: () => void;
  onSubmit: (overrides: TEditorialOverrides) => void;
};

/** A Jam editor's changes to a proposal before it becomes a CFB (edit_then_approve). */
export function ProposalEditor({ proposalId, proposed, pending, onCancel, onSubmit }: TEditorProps) {
  const trpc = useTRPC();
  const fetched = useQuery(
    trpc.proposals.get.queryOptions({ proposal_id: proposalId }, { enabled: proposed === undefined }),
  );
  const original = proposed ?? fetched.data?.proposed_cfb;
  if (!original) {
    return fetched.error ? (
      <p className="error" role="alert">
        Could not load the proposal to edit: {fetched.error.message}
      </p>
    ) : (
      <p className="muted">Loading the proposal…</p>
    );
  }
  return (
    <EditorForm
      key={proposalId}
      original={original}
      pending={pending}
      onCancel={onCancel}
      onSubmit={onSubmit}
      proposalId={proposalId}
    />
  );
}

function EditorForm({
  proposalId,
  original,
  pending,
  onCancel,
  onSubmit,
}: Omit<TEditorProps, "proposed"> & { original: TProposed }) {
  const [title, setTitle] = useState(original.title);
  const [summary, setSummary] = useState(original.summary);
  const [tagsAdd, setTagsAdd] = useState("");
  const [tagsRemove, setTagsRemove] = useState("");
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const form = { title, summary, tagsAdd, tagsRemove };
    const wrong = problem(form);
    setError(wrong);
    if (!wrong) onSubmit(editorialOverrides(original, form));
  }

  return (
    <form className="stack editor" onSubmit={submit} aria-label={`Edit proposal ${proposalId}`}>
      <label className="field">
        <span>Title</span>
        <input type="text" value={title} maxLength={TITLE_MAX} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <label className="field">
        <span>Summary</span>
        <textarea rows={3} value={summary} maxLength={SUMMARY_MAX} onChange={(e) => setSummary(e.target.value)} />
      </label>
      <p className="muted">Current tags: {original.tags.length > 0 ? original.tags.join(", ") : "none"}</p>
      <label className="field">
        <span>Tags to add (comma-separated)</span>
        <input type="text" value={tagsAdd} onChange={(e) => setTagsAdd(e.target.value)} />
      </label>
      <label className="field">
        <span>Tags to remove (comma-separated)</span>
        <input type="text" value={tagsRemove} onChange={(e) => setTagsRemove(e.target.value)} />
      </label>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="approve" disabled={pending}>
          {pending ? "Approving…" : "Save & approve"}
        </button>
        <button type="button" onClick={onCancel} disabled={pending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
