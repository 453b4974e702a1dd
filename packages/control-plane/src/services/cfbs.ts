import {
  DomainError,
  type TCfb,
  type TCfbCreateRequest,
  type TCfbEndorseRequest,
  type TCfbGetRequest,
  type TCfbListResponse,
  type TCfbUpdateRequest,
  type TCfbView,
  type ZCfbListRequest,
} from "@solserver/contracts";
import type { z } from "zod";
import { assertCanSeeCfb, auditActor, cfbScopeOf, requireJam } from "./access";
import { cfbActions } from "./cfb-repair";
import type { TServiceContext } from "./context";

// CFBs are the knowledge answers draw on. Shared ones every signed-in account reads; a private
// one (a user's own approval, issue 19) only its owner and Jam editors, until a Jam editor
// endorses it into shared knowledge. Jam editors author, edit, endorse and repair them
// (cfb-repair.ts; promotion writes CFBs too: promote.ts). Tags are written one per meaning
// (case, plurals, aliases: docs/tags.md), as promotion writes them.

export async function listCfbs(
  { deps, caller }: TServiceContext,
  input: z.output<typeof ZCfbListRequest>,
): Promise<TCfbListResponse> {
  return deps.repos.cfbs.list({ ...input, scope: cfbScopeOf(caller) });
}

/** A CFB's page: the CFB with its history, and what this caller may do to it. */
export async function getCfb(ctx: TServiceContext, input: TCfbGetRequest): Promise<TCfbView> {
  await assertCanSeeCfb(ctx, input.cfb_id);
  const cfb = await ctx.deps.repos.cfbs.get(input.cfb_id, cfbScopeOf(ctx.caller));
  if (!cfb) throw new DomainError("NOT_FOUND", `CFB ${input.cfb_id} does not exist`, { field: "cfb_id" });
  return { ...cfb, actions: cfbActions(ctx.caller, cfb) };
}

export async function createCfb({ deps, caller }: TServiceContext, input: TCfbCreateRequest): Promise<TCfb> {
  const editor = requireJam(caller, "author CFBs");
  const cfb = await deps.repos.cfbs.create({ ...input, tags: deps.tags.normalize(input.tags) }, auditActor(editor));
  deps.semantic?.afterWrite();
  return cfb;
}

export async function updateCfb({ deps, caller }: TServiceContext, input: TCfbUpdateRequest): Promise<TCfb> {
  const editor = requireJam(caller, "edit CFBs");
  const { cfb_id, version, ...draft } = input;
  const tags = deps.tags.normalize(draft.tags);
  const cfb = await deps.repos.cfbs.update(cfb_id, version, { ...draft, tags }, auditActor(editor));
  deps.semantic?.afterWrite();
  return cfb;
}

/**
 * A Jam editor endorses a private CFB into shared knowledge: from then on every thread retrieves
 * it and every proposal may resolve against it. Audited (`cfb.endorse`, naming whose it was).
 * The editor vouches for the version they saw: CONFLICT when it moved since, was merged, or is
 * shared already.
 */
export async function endorseCfb({ deps, caller }: TServiceContext, input: TCfbEndorseRequest): Promise<TCfb> {
  const editor = requireJam(caller, "endorse CFBs into shared knowledge");
  const before = await deps.repos.cfbs.get(input.cfb_id);
  if (!before) throw new DomainError("NOT_FOUND", `CFB ${input.cfb_id} does not exist`, { field: "cfb_id" });
  const cfb = await deps.repos.cfbs.endorse(input.cfb_id, input.version, auditActor(editor), before.private_to);
  deps.semantic?.afterWrite();
  return cfb;
}
