import type { THeldCode } from "@solserver/contracts";

// Plain words for the codes the server stores (resolve's reasons, proposal operations), so a
// reviewer never has to know them. Keys are resolve's reason codes (packages/resolve/src/reason-codes.ts);
// an unknown code falls back to itself, lower-cased.

export const REASON_WORDS: Record<string, string> = {
  SCORE_HIGH: "very close to an existing CFB",
  SCORE_MID: "partly like an existing CFB",
  SCORE_LOW: "unlike any existing CFB",
  NO_CANDIDATES: "no similar knowledge found",
  NEAR_DUPLICATE_PAIR: "two CFBs say the same thing",
  DISTINCT_PAIR: "two similar CFBs state different facts",
  HYSTERESIS_HOLD: "kept its earlier verdict (close call)",
  NEW_FACTS: "adds facts the CFB does not have",
  CONTRADICTS: "contradicts the CFB",
  LANGUAGE_DIFFERS: "written in another language",
  SUBJECT_DIFFERS: "the closest CFB is about something else",
  SUBJECT_CLOSE: "about a part of the CFB's subject",
  VALUE_CHANGED: "changes a value the CFB states",
  NO_SUBJECT: "names no subject",
  SEMANTIC_MATCH: "similar in meaning",
  TEXT_TOP: "closest wording",
  HIGH_TAG_ENTITY_MATCH: "same tags and names",
  TAG_ONLY_MATCH: "same tags, different wording",
  TITLE_MATCH: "same title",
  LOW_TEXT_MATCH: "different wording",
};

/** Why an approval is held back until a person looks (the proposal actions' `held` codes). */
export const HELD_WORDS: Record<THeldCode, string> = {
  resolve_review: "left for a person by resolve",
  subject_differs: "about another subject",
  value_changes: "changes a value",
  curated: "changes curated knowledge",
  duplicate: "planned twice",
};

/** "3 about another subject, 1 changes a value": the held reasons of `items`, counted by code. */
export function heldSummary(items: readonly { held: readonly { code: THeldCode }[] }[]): string {
  const counts = new Map<THeldCode, number>();
  for (const item of items) for (const h of item.held) counts.set(h.code, (counts.get(h.code) ?? 0) + 1);
  return [...counts].map(([code, n]) => `${n} ${HELD_WORDS[code]}`).join(", ");
}

export function reasonWords(code: string): string {
  return REASON_WORDS[code] ?? code.toLowerCase().replaceAll("_", " ");
}

/** What the model proposed, in words. */
export const OP_WORDS: Record<string, string> = {
  create: "new knowledge",
  update: "change to a CFB",
  merge: "merge of two CFBs",
};

/** "3 min", "5 h", "2 d": how long ago, coarse on purpose (a queue is read in hours, not seconds). */
export function ageOf(ts: string, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(ts).getTime()) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** A CFB's trust tier in words (the stored value stays in the title). */
export const TRUST_WORDS: Record<string, string> = {
  user_approved: "approved by a person",
  repo_adr: "architecture decision record (curated)",
  derived: "derived from other knowledge",
};
