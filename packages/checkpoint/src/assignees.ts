// Who may decide a checkpoint: everyone with a role, or the listed accounts. The runner only
// carries the assignees on `state.pending`; the host, which knows who is asking, enforces them
// (canDecide is the rule, so every host applies the same one).

import { z } from "zod";
import { addIssue, type TIssues, type TPath } from "./issues";
import { isPlainArray, isPlainObject } from "./plain-data";

export const ASSIGNEE_ROLES = ["jam"] as const;
export type TAssigneeRole = (typeof ASSIGNEE_ROLES)[number];

const ZEmail = z.email({ error: "must be an email address" });
const ASSIGNEES_FORM = "needs exactly one of role or accounts";

/** As a definition writes it: exactly one of role / accounts (checked in assigneesIssues). */
export const ZAssigneesSpec = z
  .strictObject({
    role: z
      .enum(ASSIGNEE_ROLES, { error: (issue) => `unknown role ${JSON.stringify(issue.input)}; roles: jam` })
      .optional(),
    accounts: z.array(ZEmail).min(1, { error: "must list at least one account" }).optional(),
  })
  .transform((spec, ctx): TAssignees => {
    if (spec.role !== undefined && spec.accounts === undefined) return { role: spec.role };
    if (spec.accounts !== undefined && spec.role === undefined) return { accounts: [...spec.accounts] };
    ctx.addIssue({ code: "custom", message: ASSIGNEES_FORM });
    return z.NEVER;
  });

/** As the state carries them (pending.assignees, a timeout's escalate_to). */
export const ZAssignees = z.union([
  z.object({ role: z.enum(ASSIGNEE_ROLES) }),
  z.object({ accounts: z.array(z.string()).min(1) }),
]);
export type TAssignees = { role: TAssigneeRole } | { accounts: string[] };

export function assigneesIssues(issues: TIssues, at: TPath, raw: unknown): void {
  if (!isPlainObject(raw)) return;
  if ((raw.role === undefined) === (raw.accounts === undefined)) addIssue(issues, at, ASSIGNEES_FORM);
  if (!isPlainArray(raw.accounts)) return;
  const seen: string[] = [];
  raw.accounts.forEach((account, i) => {
    if (typeof account !== "string") return;
    const key = account.toLowerCase();
    if (seen.includes(key)) addIssue(issues, [...at, "accounts", i], `duplicate account "${account}"`);
    seen.push(key);
  });
}

/** Who is asking, as the host knows it. */
export type TDecider = { email?: string | null | undefined; role?: string | null | undefined };

/**
 * Whether `decider` may decide a checkpoint with these assignees: anyone (the host's own rule
 * applies) when there are none, anyone with the role, or a listed account (emails compare without
 * case, as mail systems do).
 */
export function canDecide(assignees: TAssignees | null | undefined, decider: TDecider): boolean {
  if (assignees === null || assignees === undefined) return true;
  if ("role" in assignees) return decider.role === assignees.role;
  const email = decider.email?.toLowerCase();
  return email !== undefined && assignees.accounts.some((account) => account.toLowerCase() === email);
}
