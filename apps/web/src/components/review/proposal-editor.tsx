"use client";
import { type TCfbKind, type TEditorialOverrides, type TProposal, ZCfbKind } from "@solserver/contracts";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, type KeyboardEvent, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { TagChips } from "../knowledge/tag-chips";
import { QueryState } from "../ui/query-state";

type TProposed = TProposal["proposed_cfb"];

const TITLE_MAX = 200;
const SUMMARY_MAX = 2000;
const TEXT_MAX = 20000;
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

/** What the editor's fields hold (text as typed). */
type TEditorForm = {
  title: string;
  summary: string;
  text: string;
  kind: "" | TCfbKind;
  confidence: string;
  tagsAdd: string;
  tagsRemove: string;
  /** The domain to file the CFB under; "" keeps the proposal's. */
  domain: string;
};

/**
 * The values the form starts from: what approving would write without edits. A null summary is
 * an update's that proposed none: left empty, the CFB keeps its own.
 */
type TEditorOriginal = Pick<TProposed, "title" | "summary" | "tags" | "domain"> & { text: string | null };

/** What approving writes without edits, when the caller has the preview (the proposal page). */
type TEditorStart = { summary: string; text: string | null };

/** The overrides a Jam editor's form amounts to: only the fields that changed. */
function editorialOverrides(original: TEditorOriginal, form: TEditorForm): TEditorialOverrides {
  const overrides: TEditorialOverrides = {};
  const title = form.title.trim();
  const summary = form.summary.trim();
  if (title !== original.title.trim()) overrides.title_edit = title;
  if (summary !== "" && summary !== (original.summary ?? "").trim()) overrides.summary_edit = summary;
  if (form.text.trim() !== (original.text ?? "").trim()) overrides.text_edit = form.text.trim();
  if (form.kind) overrides.kind = form.kind;
  if (form.confidence.trim()) overrides.confidence = Number(form.confidence);
  const add = splitTags(form.tagsAdd);
  const remove = splitTags(form.tagsRemove);
  if (add.length > 0) overrides.tags_add = add;
  if (remove.length > 0) overrides.tags_remove = remove;
  if (form.domain && form.domain !== original.domain) overrides.domain = form.domain;
  return overrides;
}

/** The first rule the form breaks, in words, or null. A summary may stay empty only where there was none. */
function editorProblem(form: TEditorForm, summaryRequired = true): string | null {
  if (!form.title.trim()) return "Title must not be empty.";
  if (form.title.trim().length > TITLE_MAX) return `Title must be at most ${TITLE_MAX} characters.`;
  if (summaryRequired && !form.summary.trim()) return "Summary must not be empty.";
  if (form.summary.trim().length > SUMMARY_MAX) return `Summary must be at most ${SUMMARY_MAX} characters.`;
  if (form.text.length > TEXT_MAX) return `Full text must be at most ${TEXT_MAX} characters.`;
  if (form.confidence.trim()) {
    const c = Number(form.confidence);
    if (!Number.isFinite(c) || c < 0 || c > 1) return "Confidence must be a number from 0 to 1.";
  }
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
  /** What approving writes without edits (the page's preview), so edits start from it. */
  start?: TEditorStart | undefined;
  pending: boolean;
  onCancel: () => void;
  onSubmit: (overrides: TEditorialOverrides) => void;
  /** Called with the overrides as the form changes, when they are valid (a live preview). */
  onChange?: (overrides: TEditorialOverrides) => void;
};

/** A Jam editor's changes to a proposal before it becomes a CFB (edit_then_approve). */
export function ProposalEditor({ proposalId, proposed, ...rest }: TEditorProps) {
  const trpc = useTRPC();
  const fetched = useQuery(
    trpc.proposals.get.queryOptions({ proposal_id: proposalId }, { enabled: proposed === undefined }),
  );
  if (proposed) return <EditorForm key={proposalId} proposalId={proposalId} original={proposed} {...rest} />;
  return (
    <QueryState query={fetched} what="the proposal to edit" loading="Loading the proposal…">
      {(proposal) => <EditorForm key={proposalId} proposalId={proposalId} original={proposal.proposed_cfb} {...rest} />}
    </QueryState>
  );
}

/** The form as it opens: the text approving would write, no overrides yet. */
function blankForm(base: TEditorOriginal): TEditorForm {
  return {
    title: base.title,
    summary: base.summary ?? "",
    text: base.text ?? "",
    kind: "",
    confidence: "",
    tagsAdd: "",
    tagsRemove: "",
    domain: "",
  };
}

/**
 * Esc leaves the editor without saving, Ctrl+Enter (⌘+Enter) saves, from any of its fields (not
 * while it saves).
 */
function editorKey(e: KeyboardEvent<HTMLFormElement>, pending: boolean, onCancel: () => void): void {
  if (pending) return;
  if (e.key === "Escape") {
    e.preventDefault();
    e.stopPropagation();
    onCancel();
  } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    e.stopPropagation();
    e.currentTarget.requestSubmit();
  }
}

function EditorForm({
  proposalId,
  original,
  start,
  pending,
  onCancel,
  onSubmit,
  onChange,
}: Omit<TEditorProps, "proposed"> & { original: TProposed }) {
  // Fixed as the editor opens: the preview then follows the edits, and edits are measured against
  // what approving would have written without them.
  const [base] = useState<TEditorOriginal>(() => ({
    title: original.title,
    tags: original.tags,
    domain: original.domain,
    summary: start?.summary ?? original.summary,
    text: start?.text ?? null,
  }));
  const [form, setForm] = useState<TEditorForm>(() => blankForm(base));
  // The router's domains (Jam editors): moving a proposal teaches the router its message's domain.
  const routing = useQuery(useTRPC().routing.overview.queryOptions());
  const [error, setError] = useState<string | null>(null);
  const summaryRequired = base.summary !== null;

  function set<K extends keyof TEditorForm>(key: K, value: TEditorForm[K]) {
    const next = { ...form, [key]: value };
    setForm(next);
    if (onChange && editorProblem(next, summaryRequired) === null) onChange(editorialOverrides(base, next));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const wrong = editorProblem(form, summaryRequired);
    setError(wrong);
    if (!wrong) onSubmit(editorialOverrides(base, form));
  }

  return (
    <form
      className="stack editor"
      onSubmit={submit}
      aria-label={`Edit proposal ${proposalId}`}
      onKeyDown={(e) => editorKey(e, pending, onCancel)}
    >
      <label className="field">
        <span>Title</span>
        <input
          type="text"
          value={form.title}
          maxLength={TITLE_MAX}
          onChange={(e) => set("title", e.target.value)}
          // E opens the editor to type in it: focus starts on the first field.
          // biome-ignore lint/a11y/noAutofocus: the editor opens on a key press asking to edit
          autoFocus
        />
      </label>
      <label className="field">
        <span>{summaryRequired ? "Summary" : "Summary (empty: the CFB keeps its own)"}</span>
        <textarea
          rows={3}
          value={form.summary}
          maxLength={SUMMARY_MAX}
          onChange={(e) => set("summary", e.target.value)}
        />
      </label>
      <label className="field">
        <span>Full text (optional)</span>
        <textarea rows={4} value={form.text} maxLength={TEXT_MAX} onChange={(e) => set("text", e.target.value)} />
      </label>
      <TagChips
        current={original.tags}
        add={form.tagsAdd}
        remove={form.tagsRemove}
        onChange={({ add, remove }) => {
          const next = { ...form, tagsAdd: add, tagsRemove: remove };
          setForm(next);
          if (onChange && editorProblem(next, summaryRequired) === null) onChange(editorialOverrides(base, next));
        }}
      />
      <div className="row form-row">
        {routing.data ? (
          <label className="field">
            <span>Domain</span>
            <select value={form.domain} onChange={(e) => set("domain", e.target.value)}>
              <option value="">keep ({base.domain})</option>
              {routing.data.domains
                .filter((d) => d.id !== base.domain)
                .map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.label} ({d.id}): the router learns its message
                  </option>
                ))}
            </select>
          </label>
        ) : null}
        <label className="field">
          <span>Kind</span>
          <select value={form.kind} onChange={(e) => set("kind", e.target.value as TEditorForm["kind"])}>
            <option value="">keep (decided on approval)</option>
            {ZCfbKind.options.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Confidence (0–1, optional)</span>
          <input
            type="text"
            inputMode="decimal"
            value={form.confidence}
            placeholder="keep"
            onChange={(e) => set("confidence", e.target.value)}
          />
        </label>
      </div>
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
