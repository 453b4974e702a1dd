import type { TResolveCandidate } from "@solserver/contracts";
import type { TNewProposal, TTwinCandidate } from "@solserver/db";
import { resolveOutcome, sameSpecifics, textProfile } from "@solserver/resolve";
import { asResolveProposal } from "../services/resolve";

// Twins (issue 19): the same suggestion made twice must not become two cards, nor two CFBs. A new
// proposal is grouped under a pending lead with the same op and target when it has the same
// fingerprint, or when resolve, run against those leads as if they were CFBs, decides "update"
// (the band where it calls a proposal a restatement of a CFB: above 0.75, no new facts, no
// contradiction, same language) and the two name exactly the same numbers and names: "timeout
// 30 s" and "timeout 60 s" are two facts, and one that adds a port to the other says more, so
// neither is folded into the other however much of their wording they share.
// Across people (issue 35) only the same fingerprint groups, and only in the Jam queue: the new
// proposal "echoes" the other person's lead, and stays a lead in its own owner's queue.
// Pure: the candidates are read before (proposals.twinCandidates).

export type TTwinOf = NonNullable<TNewProposal["twinOf"]>;

type TLead = {
  ref: TTwinOf;
  key: string;
  op: string;
  targetCfbId: string | null;
  fingerprint: string;
  candidate: TResolveCandidate;
};

type TAction = { op: string; targetCfbId: string | null };

const sameAction = (a: TAction, b: TAction) => a.op === b.op && a.targetCfbId === b.targetCfbId;

/** The lead each of a turn's new proposals is a twin of, or null for a proposal that leads its own group. */
export function findTwins(
  news: readonly Omit<TNewProposal, "twinOf">[],
  stored: readonly TTwinCandidate[],
): (TTwinOf | null)[] {
  const others = stored.filter((c) => c.otherOwner);
  const leads: TLead[] = stored
    .filter((c) => !c.otherOwner)
    .map((c) => ({
      ref: { proposalId: c.proposalId },
      key: c.proposalId,
      op: c.op,
      targetCfbId: c.targetCfbId,
      fingerprint: c.fingerprint,
      candidate: { cfb_id: c.proposalId, title: c.title, summary: c.deltaSummary, tags: c.tags, entities: c.entities },
    }));
  return news.map((p, index) => {
    const pool = leads.filter((l) => sameAction(p, l));
    const twin = pool.find((l) => l.fingerprint === p.fingerprint) ?? restated(p, pool);
    if (twin) return twin.ref;
    // A lead in its owner's queue, an echo in the Jam queue: later proposals of the same turn
    // may be its twins.
    const echoed = others.find((c) => c.fingerprint === p.fingerprint && sameAction(p, c));
    const key = `#${index}`;
    leads.push({
      ref: { index },
      key,
      op: p.op,
      targetCfbId: p.targetCfbId,
      fingerprint: p.fingerprint,
      candidate: {
        cfb_id: key,
        title: p.proposedCfb.title,
        summary: p.deltaSummary,
        tags: p.proposedCfb.tags,
        entities: p.proposedCfb.entities,
      },
    });
    return echoed ? { proposalId: echoed.proposalId, echo: true } : null;
  });
}

/** The lead resolve says the proposal restates (decision "update"), if any. */
function restated(p: Omit<TNewProposal, "twinOf">, pool: readonly TLead[]): TLead | undefined {
  if (pool.length === 0) return undefined;
  const outcome = resolveOutcome(
    asResolveProposal(p),
    pool.map((l) => l.candidate),
  );
  if (outcome.decision !== "update" && outcome.decision !== "merge") return undefined;
  const lead = pool.find((l) => l.key === outcome.target_cfb_id);
  if (!lead) return undefined;
  const own = textProfile(p.proposedCfb.title, p.deltaSummary);
  return sameSpecifics(own, textProfile(lead.candidate.title, lead.candidate.summary)) ? lead : undefined;
}
