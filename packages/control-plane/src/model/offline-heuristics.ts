import { trimEndWhile } from "@solserver/contracts";
import { analyzeTerms, tokens as words } from "@solserver/text";
import { capitalize, normalizeWhitespace } from "../text";

// Sentence classification for the offline model. Patterns are anchored at the sentence start,
// use no nested quantifiers, and run once per sentence: linear in the message length.

type TStatementKind = "decision" | "rule" | "fact";

export type TStatement = {
  kind: TStatementKind;
  /** The stated content without its trigger phrase ("use Postgres for analytics"). */
  clause: string;
  trigger: string;
  hedged: boolean;
};

// Up to two filler words ("ok so we decided ...") and a leading hedge ("I think we decided ...").
const LEAD_FILLER = /^(?:(?:ok|okay|so|also|and|btw|alright|right|well)\s*,?\s+){0,2}/i;
const LEAD_HEDGE = /^(?:i think|i guess|i believe|maybe|probably|perhaps)\s*,?\s+/i;

const TRIGGERS: { kind: TStatementKind; re: RegExp }[] = [
  {
    kind: "decision",
    re: /^(?:we|i|the team)(?:'ve|'d)?\s+(?:have\s+|has\s+)?(?:just\s+|finally\s+)?(?:decided|agreed|chose|settled)\s+(?:on\s+|that\s+|to\s+)?/i,
  },
  { kind: "decision", re: /^(?:the|our)\s+decision\s+is\s+(?:that\s+|to\s+)?/i },
  { kind: "rule", re: /^(?:from now on|going forward|as a rule)\s*,?\s*/i },
  { kind: "rule", re: /^(?:the|our)\s+(?:rule|policy|convention)\s+is\s+(?:that\s+|to\s+)?/i },
  { kind: "fact", re: /^(?:please\s+)?(?:remember|note|keep in mind)\s+(?:that\s+)?/i },
  { kind: "fact", re: /^(?:for the record|fyi)\s*,?\s*/i },
];

const HEDGE = /\b(?:maybe|probably|perhaps|might|tentatively|i think|i guess)\b/i;

const QUESTION_START = new Set([
  "what",
  "how",
  "why",
  "when",
  "where",
  "who",
  "which",
  "whose",
  "can",
  "could",
  "should",
  "would",
  "do",
  "does",
  "did",
  "is",
  "are",
  "was",
  "were",
  "will",
  "have",
  "has",
]);

/**
 * `text` without trailing characters from `chars`. A loop, not /[.!]+$/: that regex retries from
 * every position of a long run that is not at the end, which is quadratic on untrusted text.
 */
function trimEndChars(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text.charAt(end - 1))) end--;
  return text.slice(0, end);
}

/** A stated decision, rule or fact worth proposing as knowledge, or null. */
export function detectStatement(sentence: string): TStatement | null {
  // Phones type a curly apostrophe ("we’ve"); the patterns use the straight one.
  const unfilled = sentence.replace(/[\u2018\u2019]/g, "'").replace(LEAD_FILLER, "");
  const body = unfilled.replace(LEAD_HEDGE, "");
  const hedgedLead = body.length !== unfilled.length;
  for (const { kind, re } of TRIGGERS) {
    const match = re.exec(body);
    if (!match) continue;
    const clause = normalizeWhitespace(trimEndChars(body.slice(match[0].length), ".!"));
    // A trigger with almost nothing after it ("we decided.") is not knowledge.
    if (analyzeTerms(clause, { stem: false }).length < 2) return null;
    const hedged = hedgedLead || HEDGE.test(clause);
    return { kind, clause, trigger: normalizeWhitespace(match[0]).toLowerCase(), hedged };
  }
  return null;
}

export function isQuestion(sentence: string): boolean {
  if (sentence.endsWith("?")) return true;
  const first = words(sentence)[0];
  return first !== undefined && QUESTION_START.has(first);
}

/** A short title from a clause: capitalised, cut at a word boundary near 80 characters. */
export function titleFromClause(clause: string): string {
  const text = capitalize(clause);
  if (text.length <= 80) return text;
  const cut = text.slice(0, 80);
  const space = cut.lastIndexOf(" ");
  return `${cut.slice(0, space > 40 ? space : 80)}…`;
}

/** Capitalised words after the first (proper names such as "Postgres", "SolMobile"). */
export function properNouns(clause: string): string[] {
  const out: string[] = [];
  const tokens = clause.split(/\s+/);
  for (const [i, raw] of tokens.entries()) {
    if (raw.length > 64) continue; // no name is that long; also keeps the trim below cheap
    const token = trimEndWhile(raw.replace(/^[^\p{L}\p{N}]+/u, ""), (c) => !/[\p{L}\p{N}]/u.test(c));
    if (i === 0 || token.length < 2 || token === "I") continue;
    if (/^\p{Lu}/u.test(token) && !out.includes(token)) out.push(token);
  }
  return out;
}
