// The model suggests its own op and target with every proposal; resolve decides independently.
// When the two differ, the dashboard shows one line saying how, so a reviewer can see whether
// the model or the scores are off.
import type { TResolveOutcome, TResolveProposal } from "@solserver/contracts";
import { round4 } from "./score";

/** A score as the decision compared it: up to 4 decimals, no trailing zeros (0.82, 0.7501). */
export function formatScore(score: number): string {
  return String(round4(score));
}

function resolveSays(outcome: TResolveOutcome): string {
  const scoreOf = (id: string | null) => outcome.scores.find((s) => s.cfb_id === id)?.score;
  const best = outcome.scores[0];
  const held = outcome.hysteresis_applied ? ", held by hysteresis" : "";
  switch (outcome.decision) {
    case "update":
      return `update ${outcome.target_cfb_id} (score ${formatScore(scoreOf(outcome.target_cfb_id) ?? 0)}${held})`;
    case "merge": {
      const ids = outcome.merge_cfb_ids;
      return `merge ${ids.join(" + ")} (scores ${ids.map((id) => formatScore(scoreOf(id) ?? 0)).join(", ")})`;
    }
    case "review":
      return best ? `review (best ${best.cfb_id}, score ${formatScore(best.score)})` : "review";
    case "create":
      return best ? `create (best score ${formatScore(best.score)}${held})` : "create (no candidates)";
  }
}

/**
 * null when the model's op and target agree with the decision: create/create, update of the same
 * CFB, merge naming one of the pair (the proposal has one target field, so "the same pair in any
 * order" is: the model's target is either of the two). A model op without a target agrees with
 * the same op on any target. A review decision defers to a person and disagrees with nothing,
 * except a model target that is not among the scored candidates at all. Otherwise, e.g.
 * `model proposed create; resolve says update CFB-0007 (score 0.82)`.
 */
export function disagreement(
  outcome: TResolveOutcome,
  p: Pick<TResolveProposal, "op" | "target_cfb_id">,
): string | null {
  if (!p.op) return null;
  const named = p.target_cfb_id?.trim() || null;
  const namedScore = named === null ? undefined : outcome.scores.find((s) => s.cfb_id === named)?.score;
  const unknownTarget = named !== null && namedScore === undefined;

  const agrees =
    outcome.decision === "review"
      ? !unknownTarget
      : outcome.decision === p.op &&
        (named === null ||
          (p.op === "update" && outcome.target_cfb_id === named) ||
          (p.op === "merge" && outcome.merge_cfb_ids.includes(named)) ||
          p.op === "create");
  if (agrees) return null;

  const model = p.op === "create" || named === null ? `model proposed ${p.op}` : `model proposed ${p.op} ${named}`;
  // Where the model's own target stands, unless resolve already names it.
  const resolveNames = (id: string) => outcome.target_cfb_id === id || outcome.merge_cfb_ids.includes(id);
  let note = "";
  if (unknownTarget) note = `; ${named} is not among the candidates`;
  else if (named !== null && namedScore !== undefined && p.op !== "create" && !resolveNames(named))
    note = `; ${named} scores ${formatScore(namedScore)}`;
  return `${model}; resolve says ${resolveSays(outcome)}${note}`;
}
