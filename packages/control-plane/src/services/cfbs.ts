import {
  DomainError,
  type TCfb,
  type TCfbCreateRequest,
  type TCfbDetail,
  type TCfbGetRequest,
  type TCfbListResponse,
  type TCfbUpdateRequest,
  type ZCfbListRequest,
} from "@solserver/contracts";
import type { z } from "zod";
import { auditActor, requireJam } from "./access";
import type { TServiceContext } from "./context";

// CFBs are the shared knowledge every answer draws on: any signed-in account reads them; Jam
// editors author and edit them (promotion writes them too: promote.ts). Tags are written one per
// meaning (case, plurals, aliases: docs/tags.md), as promotion writes them.

export async function listCfbs(
  { deps }: TServiceContext,
  input: z.output<typeof ZCfbListRequest>,
): Promise<TCfbListResponse> {
  return deps.repos.cfbs.list(input);
}

export async function getCfb({ deps }: TServiceContext, input: TCfbGetRequest): Promise<TCfbDetail> {
  const cfb = await deps.repos.cfbs.get(input.cfb_id);
  if (!cfb) throw new DomainError("NOT_FOUND", `CFB ${input.cfb_id} does not exist`, { field: "cfb_id" });
  return cfb;
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
