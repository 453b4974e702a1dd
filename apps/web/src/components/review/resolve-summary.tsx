"use client";
import type { TResolveDecisionView } from "@solserver/contracts";
import Link from "next/link";
import { reasonWords } from "../knowledge/glossary";
import { DataTable } from "../ui/data-table";

/** A component as shown: two decimals, or a dash when it was left out (no labels, other language). */
const shown = (value: number | null) => (value === null ? "—" : value.toFixed(2));

/** Why a candidate was held back from an update, in words a reviewer reads at a glance. */
const FLAG_TEXT: Record<TResolveDecisionView["scores"][number]["flags"][number], string> = {
  NEW_FACTS: "adds facts",
  CONTRADICTS: "contradicts",
  LANGUAGE_DIFFERS: "other language",
  SEMANTIC_MATCH: "semantic",
  SUBJECT_DIFFERS: "another subject",
  SUBJECT_CLOSE: "a close subject",
  VALUE_CHANGED: "changes a value",
};

/** What sets a candidate's subject apart, and which values the proposal changes, in words. */
function notes(s: TResolveDecisionView["scores"][number]): string {
  const parts = s.flags.map((f) => FLAG_TEXT[f]);
  if (s.subject && s.subject.relation !== "same" && s.subject.proposal.length > 0)
    parts.push(
      s.subject.candidate.length > 0
        ? `“${s.subject.proposal.join(" ")}” here, “${s.subject.candidate.join(" ")}” there`
        : `“${s.subject.proposal.join(" ")}” only here`,
    );
  for (const c of s.changes ?? []) parts.push(`${c.old} → ${c.new}`);
  return parts.join("; ");
}

const DECISION_TEXT: Record<TResolveDecisionView["decision"], string> = {
  update: "update",
  review: "needs review",
  create: "new CFB",
  merge: "merge",
};

/**
 * Resolve's verdict on a proposal (seed 001 §6): the decision, its target, the model's own
 * suggestion when they disagree, and the scores with their components, so the decision explains
 * itself.
 */
export function ResolveSummary({ resolve, open = false }: { resolve: TResolveDecisionView; open?: boolean }) {
  const top = resolve.scores[0];
  return (
    <div className="stack resolve" data-testid="resolve-summary">
      <div className="row">
        <span className={`badge resolve-${resolve.decision}`} data-testid="resolve-decision">
          resolve: {DECISION_TEXT[resolve.decision]}
        </span>
        {resolve.target_cfb_id ? <Link href={`/cfbs/${resolve.target_cfb_id}`}>{resolve.target_cfb_id}</Link> : null}
        {resolve.merge_cfb_ids.length > 1 ? (
          <span className="muted">with {resolve.merge_cfb_ids.slice(1).join(", ")}</span>
        ) : null}
        {top ? <span className="muted">score {top.score.toFixed(2)}</span> : null}
        <span className="muted">{resolve.stage === "promotion" ? "at promotion" : "at creation"}</span>
      </div>
      {resolve.disagreement ? (
        <p className="badge warn" data-testid="resolve-disagreement">
          {resolve.disagreement}
        </p>
      ) : null}
      {resolve.scores.length > 0 ? (
        <details open={open}>
          <summary>Scores and reasons</summary>
          <p className="muted flush">
            Why (<a href="/glossary#g-reasons">glossary</a>):
          </p>
          <ul className="muted reasons" data-testid="resolve-reasons">
            {resolve.reason_codes.map((code) => (
              <li key={code} title={code}>
                {reasonWords(code)}
              </li>
            ))}
          </ul>
          <DataTable headers={["CFB", "score", "text", "tags", "entities", "title", "new", "notes"]}>
            <tbody>
              {resolve.scores.slice(0, 5).map((s) => (
                <tr key={s.cfb_id}>
                  <td>
                    <Link href={`/cfbs/${s.cfb_id}`}>{s.cfb_id}</Link>
                  </td>
                  <td>{s.score.toFixed(2)}</td>
                  <td>
                    {shown(s.components.text_similarity)}
                    {s.components.semantic_similarity === null ? null : (
                      <span className="muted"> (cos {s.components.semantic_similarity.toFixed(2)})</span>
                    )}
                  </td>
                  <td>{shown(s.components.tag_overlap)}</td>
                  <td>{shown(s.components.entity_overlap)}</td>
                  <td>{shown(s.components.title_similarity)}</td>
                  <td>{shown(s.components.new_share)}</td>
                  <td>{notes(s)}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        </details>
      ) : (
        // In words, the code kept for the glossary ("no CFB to compare with", not NO_CANDIDATES).
        <p className="muted">
          {resolve.reason_codes.map((code, i) => (
            <span key={code} title={code}>
              {i > 0 ? ", " : ""}
              {reasonWords(code)}
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
