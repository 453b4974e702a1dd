import { z } from "zod";
import { ZCfb, ZCfbDetail } from "./cfb";
import { ZCfbId, ZIsoDate } from "./ids";

// Undo and repair of knowledge (issue 19): a Jam editor reverts a CFB to an earlier version,
// retires it (and restores it), or merges another CFB into it. Each is a new version written
// through the one CFB writer, conditional on the version the editor saw.

/**
 * What a Jam editor may do to a CFB from its page: repair it, or endorse a private one into
 * shared knowledge (cfbs.endorse).
 */
export const ZCfbRepairAction = z.enum(["revert", "retire", "restore", "merge", "endorse"]);
export type TCfbRepairAction = z.infer<typeof ZCfbRepairAction>;

/**
 * What this caller may do to the CFB now, as the server decides it (the UI renders it and works
 * out nothing itself): empty for anyone but a Jam editor.
 */
export const ZCfbActions = z.object({
  allowed: z.array(ZCfbRepairAction),
  /** The earlier versions `cfbs.revert` would restore (those whose content differs from the current one). */
  revert_to: z.array(z.number().int().positive()),
});
export type TCfbActions = z.infer<typeof ZCfbActions>;

/** A CFB's page: the CFB with its history, and what this caller may do to it. */
export const ZCfbView = ZCfbDetail.extend({ actions: ZCfbActions });
export type TCfbView = z.infer<typeof ZCfbView>;

const ZVersion = z.number().int().min(1);

/** Restores version `to_version`'s content as a new version; `version` is the one the editor saw. */
export const ZCfbRevertRequest = z
  .object({ cfb_id: ZCfbId, version: ZVersion, to_version: ZVersion })
  .strict()
  .refine((r) => r.to_version < r.version, {
    path: ["to_version"],
    message: "must be an earlier version than version",
  });
export type TCfbRevertRequest = z.infer<typeof ZCfbRevertRequest>;

/** Retires (or restores) the CFB at `version`, the version the editor saw. */
export const ZCfbRetireRequest = z.object({ cfb_id: ZCfbId, version: ZVersion }).strict();
export type TCfbRetireRequest = z.infer<typeof ZCfbRetireRequest>;

/** Where a retire or restore left the CFB. */
export const ZCfbRetirement = z.object({
  cfb_id: ZCfbId,
  version: ZVersion,
  /** When it was retired; null once restored. */
  retired_ts: ZIsoDate.nullable(),
});
export type TCfbRetirement = z.infer<typeof ZCfbRetirement>;

/**
 * Folds `merge_cfb_id` into `cfb_id` (the survivor), as a promotion's merge does: each at the
 * version the editor saw.
 */
export const ZCfbMergeRequest = z
  .object({ cfb_id: ZCfbId, version: ZVersion, merge_cfb_id: ZCfbId, merge_version: ZVersion })
  .strict()
  .refine((r) => r.merge_cfb_id !== r.cfb_id, {
    path: ["merge_cfb_id"],
    message: "must be another CFB than cfb_id",
  });
export type TCfbMergeRequest = z.infer<typeof ZCfbMergeRequest>;

export const ZCfbMergeResponse = z.object({
  /** The survivor, at its new version. */
  cfb: ZCfb,
  /** The CFB folded into it: its id now resolves to the survivor. */
  merged_cfb_id: ZCfbId,
});
export type TCfbMergeResponse = z.infer<typeof ZCfbMergeResponse>;
