import { capitalize } from "../text";

// What an approved proposal writes into a CFB when the model proposed no content of its own:
// its change note (`delta_summary`) restated as the fact it records. A change note describes
// the change ("Add decision: every API timestamp is stored in UTC."); a CFB holds knowledge
// ("Every API timestamp is stored in UTC."), so the note's verb label never lands in a CFB.

// "Add decision:", "Add:", "Added rule:", "Update:", "New fact:" … at the start, up to the colon.
// One optional word between verb and colon and no nested quantifier: linear on any input.
const CHANGE_LABEL =
  /^\s*(?:add(?:ed|s)?|record(?:ed|s)?|new|note|update[ds]?|change[ds]?)(?:\s+[\p{L}-]{1,24})?\s*:\s*/iu;

/** The fact a change note records, as a sentence: its label dropped, capitalised, with a full stop. */
export function factOf(changeNote: string): string {
  const note = changeNote.trim();
  const fact = note.replace(CHANGE_LABEL, "").trim() || note;
  return /[.!?…]$/u.test(fact) ? capitalize(fact) : `${capitalize(fact)}.`;
}

const comparable = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * `base` with `addition` as its last paragraph. Unchanged when it already says it (approving a
 * restatement twice adds it once).
 */
export function withParagraph(base: string, addition: string): string {
  const added = addition.trim();
  if (comparable(base).includes(comparable(added))) return base;
  return base.trim() === "" ? added : `${base.trimEnd()}\n\n${added}`;
}
