// What the learned reader adds to the rules (issue 36). The rules read first; when they find no
// answer at all in a message that is open to one (not an announcement, a question, a non-answer,
// a command, off-topic talk or a hazard), the reader trained on the catalog's examples
// (learned-reader.ts) answers each step it gives at least ADD_AT: "with all taps shut it stops,
// then starts again on its own" is the pressure switch bleeding down although no pattern says so.
// - Beside an answer the rules read in words of the catalog, it adds the later steps a message
//   states too ("sail switch closed, lights first try stays lit") that it gives ADD_BESIDE_AT,
//   none the rules named or that was answered before. Trained without four sets and scored on
//   them (three folds, pr to qc): +2, +0 and +2 turns as expected of 1,056, 886 and 1,008, no
//   invented finding more.
// - It never overrules an answer the rules found: blind to the question asked and to languages
//   without examples, its doubt is no evidence (dropping the rules' answers below a threshold
//   gained 5 tune turns and broke 19 of the engine's own tests, in Russian and long pastes;
//   dropping only answers of steps not asked still broke 6: several findings in one message).
// - It answers no step that takes readings when the message holds a number: the rules read
//   numbers, and a number they set aside ("cap reads 40", no rating) must stay set aside.
// ADD_AT was fixed on the tune split only: sets pv and pw, each read by the rules as they were
// before they were tuned on it (docs/procedure-mode.md, "The learned reader").

import { compile } from "./catalog-index";
import type { TAnswer, TCatalog } from "./catalog-schema";
import type { TFound, TMention, TMessage } from "./intent";
import { matchingSystem } from "./localize";
import { VOCABULARY } from "./vocabulary";

const ADD_AT = 0.5;
/** Surer beside the rules' answer: at 0.5–0.7 "runs but keeps kicking on by itself" also answered the pressure switch, whose taps nobody closed. */
const ADD_BESIDE_AT = 0.8;

export function withLearned(m: TMessage, found: TFound, message: string, open: boolean): TFound {
  if (!open || m.state.mode !== "diagnostic") return found;
  const rulesFound = found.answer !== null || found.stated.length > 0 || found.ambiguous.length > 0;
  // (a bare "no" says nothing of other steps, however often they were "no" in the examples)
  if (rulesFound && found.weak) return found;
  const reader = m.c.learned();
  if (reader === null) return found;
  // ("the blower", "fan?": a part named and nothing said of it)
  const said = m.r.clauses.some((clause) =>
    clause.tokens.some((t) => !m.c.partWords.has(t) && !VOCABULARY.fillers.has(t)),
  );
  if (!said) return found;
  const p = reader.probabilities(message);
  const asked = m.activeStep === undefined ? m.steps.length : m.steps.indexOf(m.activeStep);
  const named = new Set(found.stated.map((s) => s.step.id));
  let answer: TAnswer | null = null;
  const stated: TMention[] = [];
  m.steps.forEach((step, index) => {
    if (m.r.numbered && step.readings !== undefined) return;
    // Beside what the rules found, only steps they did not name and none answered before.
    if (rulesFound && (index <= asked || named.has(step.id) || m.state.completed.includes(step.id))) return;
    let best: TAnswer | null = null;
    let bestP = rulesFound ? ADD_BESIDE_AT : ADD_AT;
    for (const a of step.answers) {
      const pa = p.get(`${step.id}=${a.id}`) ?? 0;
      if (pa >= bestP) [best, bestP] = [a, pa];
    }
    if (best === null) return;
    if (step === m.activeStep) answer = best;
    else stated.push({ step, index, answer: best });
  });
  if (rulesFound) return stated.length === 0 ? found : { ...found, stated: [...found.stated, ...stated] };
  return { ...found, answer, weak: false, stated };
}

/** Trains a system's learned reader now (a server's warm-up) rather than on its first message. */
export function trainSystemReader(catalog: TCatalog, systemId: string): void {
  const system = catalog.systems.find((s) => s.id === systemId);
  if (system !== undefined) compile(matchingSystem(catalog, system)).learned();
}
