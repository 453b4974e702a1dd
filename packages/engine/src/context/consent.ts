// Consent: how a message answers the authorization request (yes, no, a deferral, a condition, a
// question about the cost), and whether it grants permission mid-diagnosis ("yes go ahead").

import type { TConsent, TMessage } from "./intent";
import { negatedIn } from "./items";
import { MAX_ANALYSED_CHARS, NON_ANSWERS, opensWithQuestionWord, questionTopic } from "./message-read";
import { indexOf } from "./phrases";
import { lex, type TPhrase, VOCABULARY } from "./vocabulary";

/**
 * A message as an answer to "do you authorize the repair?". Only a plain yes is "yes": every word
 * is an approval phrase or a polite or repair word ("yes please, replace it"), no question, no
 * condition. A condition ("yes if it's under warranty"), a cost question, a deferral ("ok, I need
 * to ask the customer first") or any other question is not consent; a plain decline is "no".
 */
export function consentOf(message: string): TConsent {
  const clauses = lex(message.slice(0, MAX_ANALYSED_CHARS));
  const tokens = clauses.flatMap((c) => c.tokens);
  if (tokens.length === 0) return null;
  const has = (table: readonly TPhrase[]) => clauses.some((c) => indexOf(table).in(c.tokens).length > 0);
  const question = clauses.some((c) => c.question || questionTopic(c) !== null || opensWithQuestionWord(c));
  if (has(VOCABULARY.consent.conditional)) return "conditional";
  const deferral = has(VOCABULARY.consent.deferral) || NON_ANSWERS.all(clauses).length > 0;
  // Polite and repair words may come with a plain yes or no; "yes" and "no" themselves never count as extra.
  const extra = new Set(
    [...VOCABULARY.consent.plainExtra, ...VOCABULARY.fillers].filter((t) => t !== "yes" && t !== "no"),
  );
  const only = (table: readonly TPhrase[]) => clauses.every((c) => indexOf(table).covers(c.tokens, extra));
  const plain = !question && !deferral;
  // "not approved" holds "approved": a yes counts only when nothing negates it
  const yes = clauses.some((c) =>
    indexOf(VOCABULARY.consent.yes)
      .in(c.tokens)
      .some((span) => !negatedIn(c.tokens, span.start)),
  );
  if (plain && yes && only(VOCABULARY.consent.yes) && !has(VOCABULARY.consent.no)) return "yes";
  // A decline may say why ("customer declined, they'll swap it themselves"); a bare "no" with more
  // words ("no, it does not run") is not one, and a yes may never say more.
  const declines = clauses.some((c) =>
    indexOf(VOCABULARY.consent.no)
      .in(c.tokens)
      .some((span) => VOCABULARY.consent.no[span.phrase]?.join(" ") !== "no"),
  );
  if (plain && !yes && (declines || (has(VOCABULARY.consent.no) && only(VOCABULARY.consent.no)))) return "no";
  if (has(VOCABULARY.consent.cost)) return "cost";
  if (deferral) return "deferral";
  if (question) return "question";
  return null;
}

/** Approval phrases beyond a bare yes ("go ahead", "approved", "do it"): permission, not a finding. */
export const APPROVALS = VOCABULARY.consent.yes.filter((p) => !(p.length === 1 && (p[0] === "yes" || p[0] === "sure")));

/** Whether the message grants permission in words the step asked does not take ("yes go ahead"). */
export function grantsPermission(m: TMessage): boolean {
  const taken = new Set(
    (m.activeStep === undefined ? [] : (m.c.answers.get(m.activeStep) ?? [])).flat().map((p) => p.tokens.join(" ")),
  );
  return indexOf(APPROVALS)
    .all(m.r.clauses)
    .some((span) => !taken.has(APPROVALS[span.phrase]?.join(" ") ?? ""));
}

/** Whether a message is a plain yes to the authorization request (what authorizes a repair). */
export function isPlainYes(message: string): boolean {
  return consentOf(message) === "yes";
}
