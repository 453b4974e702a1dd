import {
  DomainError,
  type TCfb,
  type TCfbActions,
  type TCfbDetail,
  type TCfbMergeRequest,
  type TCfbMergeResponse,
  type TCfbRepairAction,
  type TCfbRetirement,
  type TCfbRetireRequest,
  type TCfbRevertRequest,
} from "@solserver/contracts";
import { auditActor, requireJam } from "./access";
import type { TCaller, TServiceContext } from "./context";
import { mergeDraft } from "./promote";

// Undo and repair of knowledge (issue 19), Jam editors only: revert a CFB to an earlier version,
// retire it and restore it, merge another CFB into it. Each is a new version written through the
// one CFB writer (packages/db cfb-write.ts) conditional on the version the editor saw, with its
// revision and an audit event, in one transaction. Restoring is part of retiring's design:
// retiring takes knowledge out of use without losing it, so it must be as easy to take back.
//
// What a retired CFB is: out of retrieval, resolve's candidates, the vector index and the default
// list (packages/db live.ts, and the candidate index through the CfbChange log), with its page,
// history and id kept. A merged CFB is out the same way, for good: its id resolves to the survivor.

/** Who may repair knowledge: the refusal every action here answers a `user` with. */
const JAM_ONLY = "revert, retire, restore or merge CFBs";

/**
 * What the caller may do to the CFB now: the states each write needs (cfb-write.ts checks the
 * same inside the write, so a race still ends in CONFLICT).
 */
export function cfbActions(caller: TCaller, cfb: TCfbDetail): TCfbActions {
  if (caller.role !== "jam") return { allowed: [], revert_to: [] };
  const revertTo = cfb.revisions.filter((r) => !r.same_as_current).map((r) => r.version);
  const merged = cfb.merged_into_cfb_id !== null;
  const retired = cfb.retired_ts !== null;
  const allowed: Record<TCfbRepairAction, boolean> = {
    revert: revertTo.length > 0,
    retire: !merged && !retired,
    restore: !merged && retired,
    merge: !merged && !retired,
    // Endorsing vouches for live knowledge: a retired private CFB is restored first.
    endorse: !merged && !retired && cfb.visibility === "private",
  };
  return {
    allowed: (Object.keys(allowed) as TCfbRepairAction[]).filter((a) => allowed[a]),
    revert_to: allowed.revert ? revertTo : [],
  };
}

async function existingCfb({ deps }: TServiceContext, cfbId: string, field: string): Promise<TCfbDetail> {
  const cfb = await deps.repos.cfbs.get(cfbId);
  if (!cfb) throw new DomainError("NOT_FOUND", `CFB ${cfbId} does not exist`, { field });
  return cfb;
}

/**
 * Restores `to_version`'s content (every field a draft sets) as a new version, revision `revert`.
 * Retirement and merges are not content: a retired CFB stays retired. A stale `version` is
 * CONFLICT naming what changed; a version holding the content the CFB has is BAD_INPUT.
 */
export async function revertCfb({ deps, caller }: TServiceContext, input: TCfbRevertRequest): Promise<TCfb> {
  const editor = requireJam(caller, JAM_ONLY);
  const cfb = await deps.repos.cfbs.revert(input.cfb_id, input.version, input.to_version, auditActor(editor));
  deps.semantic?.afterWrite();
  return cfb;
}

async function setRetired(ctx: TServiceContext, input: TCfbRetireRequest, retired: boolean): Promise<TCfbRetirement> {
  const { deps, caller } = ctx;
  const editor = requireJam(caller, JAM_ONLY);
  const { cfb, retiredAt } = await deps.repos.cfbs.setRetired(input.cfb_id, input.version, retired, auditActor(editor));
  deps.semantic?.afterWrite();
  return { cfb_id: cfb.cfb_id, version: cfb.version, retired_ts: retiredAt ? retiredAt.toISOString() : null };
}

/** Takes a live CFB out of use (revision `retire`); CONFLICT when it is merged or retired already. */
export function retireCfb(ctx: TServiceContext, input: TCfbRetireRequest): Promise<TCfbRetirement> {
  return setRetired(ctx, input, true);
}

/** Brings a retired CFB back into use (revision `restore`); CONFLICT when it is not retired. */
export function restoreCfb(ctx: TServiceContext, input: TCfbRetireRequest): Promise<TCfbRetirement> {
  return setRetired(ctx, input, false);
}

/**
 * Folds `merge_cfb_id` into `cfb_id`, as a promotion's merge does: the survivor keeps its content
 * and gains the other's tags, entities and sources; the other points to it (its id resolves to
 * the survivor) and leaves retrieval and resolve. Both `merge` revisions, each conditional on the
 * version the editor saw; both must be live.
 */
export async function mergeCfbs(ctx: TServiceContext, input: TCfbMergeRequest): Promise<TCfbMergeResponse> {
  const { deps, caller } = ctx;
  const editor = requireJam(caller, JAM_ONLY);
  const [survivor, merged] = await Promise.all([
    existingCfb(ctx, input.cfb_id, "cfb_id"),
    existingCfb(ctx, input.merge_cfb_id, "merge_cfb_id"),
  ]);
  // A merged CFB's readers follow its survivor: shared knowledge folded into a private CFB (or
  // one private to somebody else) would vanish from everyone else's answers.
  if (
    survivor.visibility === "private" &&
    (merged.visibility !== "private" || merged.private_to !== survivor.private_to)
  ) {
    throw new DomainError(
      "CONFLICT",
      `CFB ${survivor.cfb_id} is private to ${survivor.private_to}; ${merged.cfb_id} is ${merged.visibility === "private" ? `private to ${merged.private_to}` : "shared"}: endorse ${survivor.cfb_id} first, or merge the other way round`,
      { field: "merge_cfb_id" },
    );
  }
  const cfb = await deps.repos.cfbs.merge(
    {
      survivorId: survivor.cfb_id,
      survivorVersion: input.version,
      mergedId: merged.cfb_id,
      mergedVersion: input.merge_version,
      draft: mergeDraft(deps.tags, survivor, merged),
    },
    auditActor(editor),
  );
  deps.semantic?.afterWrite();
  return { cfb, merged_cfb_id: merged.cfb_id };
}
