"use client";
import { diffArrays, diffWordsWithSpace } from "diff";
import type { ReactNode } from "react";
import { DataTable } from "../ui/data-table";

// Word diffs of text a model or a person wrote: bounded so a long, very different text cannot
// stall the page (jsdiff gives up after the timeout and the field shows before/after whole).
const DIFF_TIMEOUT_MS = 50;

/** A field's value as one line of text (lists joined, empty shown as a dash). */
export function shown(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (Array.isArray(value)) return value.length > 0 ? value.join(", ") : "—";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(2);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/**
 * What changed from `before` to `after`, highlighted: text word by word, lists item by item,
 * anything else as the old value struck through and the new one marked.
 */
export function FieldDiff({ before, after }: { before: unknown; after: unknown }): ReactNode {
  if (typeof before === "string" && typeof after === "string") {
    const parts = diffWordsWithSpace(before, after, { timeout: DIFF_TIMEOUT_MS });
    if (parts) {
      // Keyed by where each part starts in the two texts: unique and stable for one diff.
      let at = 0;
      const keyed = parts.map((p) => {
        const key = `${p.added ? "+" : p.removed ? "-" : "="}${at}`;
        at += p.value.length;
        return { key, part: p };
      });
      return (
        <span className="diff-text">
          {keyed.map(({ key, part }) =>
            part.added ? (
              <ins key={key}>{part.value}</ins>
            ) : part.removed ? (
              <del key={key}>{part.value}</del>
            ) : (
              <span key={key}>{part.value}</span>
            ),
          )}
        </span>
      );
    }
  }
  if (isStrings(before) && isStrings(after)) {
    const parts = diffArrays(before, after);
    return (
      <span className="diff-list">
        {parts.flatMap((p) =>
          p.value.map((item) =>
            p.added ? (
              <ins key={`+${item}`}>{item}</ins>
            ) : p.removed ? (
              <del key={`-${item}`}>{item}</del>
            ) : (
              <span key={item}>{item}</span>
            ),
          ),
        )}
      </span>
    );
  }
  return (
    <span>
      <del>{shown(before)}</del> <ins>{shown(after)}</ins>
    </span>
  );
}

const FIELD_LABELS: Record<string, string> = {
  title: "Title",
  summary: "Summary",
  text: "Full text",
  tags: "Tags",
  entities: "Entities",
  domain: "Domain",
  kind: "Kind",
  confidence: "Confidence",
  trust_tier: "Trust tier",
  source_refs: "Sources",
};
const fieldLabel = (field: string) => FIELD_LABELS[field] ?? field;

type TSideBySide =
  | {
      /** The CFB now, and the fields the change touches. */
      before: Readonly<Record<string, unknown>>;
      beforeLabel: string;
      changed: ReadonlySet<string>;
      after: Readonly<Record<string, unknown>>;
      afterLabel: string;
    }
  | { before: null; after: Readonly<Record<string, unknown>>; afterLabel: string };

/**
 * A CFB now and after a change, side by side, field by field; the fields that change are marked
 * and show the highlighted diff in the "after" column. Without a `before` (a new CFB), just the
 * fields it would have.
 */
export function CfbSideBySide(props: TSideBySide) {
  const { before, after, afterLabel } = props;
  return (
    <DataTable
      headers={before ? ["Field", props.beforeLabel, afterLabel] : ["Field", afterLabel]}
      className="side-by-side"
      label={before ? `${props.beforeLabel} and ${afterLabel}` : afterLabel}
    >
      <tbody>
        {Object.keys(FIELD_LABELS).map((field) => {
          const isChanged = before !== null && props.changed.has(field);
          return (
            <tr key={field} className={isChanged ? "changed" : undefined} data-field={field}>
              <th scope="row">
                {fieldLabel(field)}
                {isChanged ? <span className="visually-hidden"> (changes)</span> : null}
              </th>
              {before ? <td>{shown(before[field])}</td> : null}
              <td>{isChanged ? <FieldDiff before={before[field]} after={after[field]} /> : shown(after[field])}</td>
            </tr>
          );
        })}
      </tbody>
    </DataTable>
  );
}
