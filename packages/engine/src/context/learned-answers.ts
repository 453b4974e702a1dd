// What the learned reader adds to the rules (issue 36). The rules read first; when they find no
// answer at all in a message that is open to one (not an announcement, a question, a non-answer,
// a command, off-topic talk or a hazard), the reader trained on the catalog's examples
// (learned-reader.ts) answers each step it gives at least ADD_AT: "with all taps shut it stops,
// then starts again on its own" is the pressure switch bleeding down although no pattern says so.
// - It never overrules an answer the rules found: blind to the question asked and to languages
//   without examples, its doubt is no evidence (dropping the rules' answers below a threshold
//   gained 5 tune turns and broke 19 of the engine's own tests, in Russian and long pastes;
//   dropping only answers of steps not asked still broke 6: several findings in one message).
// - It answers no step that takes readings when the message holds a number: the rules read
//   numbers, and a number they set aside ("cap reads 40", no rating) must stay set aside.
// ADD_AT was fixed on the tune split only: sets pv and pw, each read by the rules as they were
// before they were tuned on it (docs/procedure-mode.md, "The learned reader").

import { isNumber } from "@solserver/text";
import { compile } from "./catalog-index";
import type { TAnswer, TCatalog } from "./catalog-schema";
import type { TFound, TMention, TMessage } from "./intent";
import { matchingSystem } from "./localize";

const ADD_AT = 0.5;

export function withLearned(m: TMessage, found: TFound, message: string, open: boolean): TFound {
  if (!open || m.state.mode !== "diagnostic") return found;
  if (found.answer !== null || found.stated.length > 0 || found.ambiguous.length > 0) return found;
  const reader = m.c.learned();
  if (reader === null) return found;
  const p = reader.probabilities(message);
  const numbered = m.r.clauses.some((clause) => clause.tokens.some(isNumber));
  let answer: TAnswer | null = null;
  const stated: TMention[] = [];
  m.steps.forEach((step, index) => {
    if (numbered && step.readings !== undefined) return;
    let best: TAnswer | null = null;
    let bestP = ADD_AT;
    for (const a of step.answers) {
      const pa = p.get(`${step.id}=${a.id}`) ?? 0;
      if (pa >= bestP) [best, bestP] = [a, pa];
    }
    if (best === null) return;
    if (step === m.activeStep) answer = best;
    else stated.push({ step, index, answer: best });
  });
  return { ...found, answer, weak: false, stated };
}

/** Trains a system's learned reader now (a server's warm-up) rather than on its first message. */
export function trainSystemReader(catalog: TCatalog, systemId: string): void {
  const system = catalog.systems.find((s) => s.id === systemId);
  if (system !== undefined) compile(matchingSystem(catalog, system)).learned();
}
