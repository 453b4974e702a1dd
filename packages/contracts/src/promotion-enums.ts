import { z } from "zod";

// The seed's four actions (001 §3.3). The contract names all of them so clients written against
// the seed get a precise answer; the service says which ones this build performs.
export const ZPromoteAction = z.enum(["approve_create", "approve_update", "reject", "edit_then_approve"]);
export type TPromoteAction = z.infer<typeof ZPromoteAction>;

/** Who decided a promotion (seed 001 §7.3): the thread's user or a Jam editor. */
export const ZEditor = z.enum(["user", "jam"]);
export type TEditor = z.infer<typeof ZEditor>;
