import type { TCfbKind, TEditor, TTrustTier } from "@solserver/contracts";

// Trust tiers and protected knowledge (docs/api.md#trust-tiers-and-protection). A CFB's trust
// tier says where its knowledge came from (seed 001 §2.1): derived by the system, approved by a
// person, or a repository's architecture decision record. Approving a proposal never lowers it,
// and curated knowledge (authoritative, or from an ADR) is changed by Jam editors only.

/** Lowest to highest. */
const TIER_ORDER: readonly TTrustTier[] = ["derived", "user_approved", "repo_adr"];
const KIND_ORDER: readonly TCfbKind[] = ["umbra", "heuristic", "authoritative"];

const highest = <T>(order: readonly T[], values: readonly T[]): T =>
  values.reduce((best, v) => (order.indexOf(v) > order.indexOf(best) ? v : best));

/** The highest of these tiers (a Jam editor's merge keeps the stronger of the two CFBs'). */
export function highestTrustTier(first: TTrustTier, ...rest: readonly TTrustTier[]): TTrustTier {
  return highest(TIER_ORDER, [first, ...rest]);
}

/** The tier an approval writes: a person approved it, and what it changes keeps any higher tier. */
export function approvedTrustTier(...changed: readonly TTrustTier[]): TTrustTier {
  return highestTrustTier("user_approved", ...changed);
}

/** The strongest kind among the CFBs an update changes (a merge folds one into the other). */
export function strongestKind(first: TCfbKind, ...rest: readonly TCfbKind[]): TCfbKind {
  return highest(KIND_ORDER, [first, ...rest]);
}

/** What protection reads of a CFB. */
export type TGuarded = { cfb_id: string; kind: TCfbKind; trust_tier: TTrustTier };

/** Curated knowledge: kind authoritative, or trust tier repo_adr. Only a Jam editor changes it. */
function isProtected(cfb: Pick<TGuarded, "kind" | "trust_tier">): boolean {
  return cfb.kind === "authoritative" || cfb.trust_tier === "repo_adr";
}

/** The first protected CFB an update changes (its target, then the CFB a merge folds in), or null. */
export function protectedCfb<C extends TGuarded>(update: { target: C; merged: C | null }): C | null {
  return [update.target, update.merged].find((c): c is C => c !== null && isProtected(c)) ?? null;
}

/** "CFB-0003 is authoritative and a repository ADR (repo_adr)". */
function whatItIs(cfb: TGuarded): string {
  const traits = [
    ...(cfb.kind === "authoritative" ? ["authoritative"] : []),
    ...(cfb.trust_tier === "repo_adr" ? ["a repository ADR (repo_adr)"] : []),
  ];
  return `${cfb.cfb_id} is ${traits.join(" and ")}`;
}

/** Why anyone but a Jam editor is refused, and what they can do instead. */
export function protectedRefusal(cfb: TGuarded): string {
  return `only a Jam editor may change ${cfb.cfb_id}: ${whatItIs(cfb)}; reject the proposal or leave it to a Jam editor`;
}

/** The note a reviewer reads before approving: the refusal for a user, a warning for a Jam editor. */
export function protectionNote(cfb: TGuarded, editor: TEditor): string {
  if (editor !== "jam") return `Only a Jam editor may change ${cfb.cfb_id}: ${whatItIs(cfb)}.`;
  return `${whatItIs(cfb)}: approving changes curated knowledge, which keeps its kind and trust tier.`;
}
