import {
  DomainError,
  type TCfb,
  type TCfbCreateRequest,
  type TCfbGetRequest,
  type TCfbListResponse,
  type TCfbUpdateRequest,
  type TCfbView,
  type ZCfbListRequest,
} from "@solserver/contracts";
import type { z } from "zod";
import { auditActor, requireJam } from "./access";
import { cfbActions } from "./cfb-repair";
import type { TServiceContext } from "./context";

// CFBs are the shared knowledge every answer draws on: any signed-in account reads them; Jam
// editors author, edit and repair them (cfb-repair.ts; promotion writes them too: promote.ts).

export async function listCfbs(
  { deps }: TServiceContext,
  input: z.output<typeof ZCfbListRequest>,
): Promise<TCfbListResponse> {
  return deps.repos.cfbs.list(input);
}

/** A CFB's page: the CFB with its history, and what this caller may do to it. */
export async function getCfb({ deps, caller }: TServiceContext, input: TCfbGetRequest): Promise<TCfbView> {
  const cfb = await deps.repos.cfbs.get(input.cfb_id);
  if (!cfb) throw new DomainError("NOT_FOUND", `CFB ${input.cfb_id} does not exist`, { field: "cfb_id" });
  return { ...cfb, actions: cfbActions(caller, cfb) };
}

export async function createCfb({ deps, caller }: TServiceContext, input: TCfbCreateRequest): Promise<TCfb> {
  const editor = requireJam(caller, "author CFBs");
  const cfb = await deps.repos.cfbs.create(input, auditActor(editor));
  deps.semantic?.afterWrite();
  return cfb;
}

export async function updateCfb({ deps, caller }: TServiceContext, input: TCfbUpdateRequest): Promise<TCfb> {
  const editor = requireJam(caller, "edit CFBs");
  const { cfb_id, version, ...draft } = input;
  const cfb = await deps.repos.cfbs.update(cfb_id, version, draft, auditActor(editor));
  deps.semantic?.afterWrite();
  return cfb;
}
