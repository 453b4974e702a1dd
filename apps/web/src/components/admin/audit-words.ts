// The audit log in words: what each recorded action means, where its target lives, and details
// read as "key: value" with account ids named. Unknown actions show as they are stored.

export const ACTION_WORDS: Record<string, string> = {
  "proposal.approve_create": "approved a proposal as new knowledge",
  "proposal.approve_update": "approved a proposal as an update",
  "proposal.edit_then_approve": "edited and approved a proposal",
  "proposal.reject": "rejected a proposal",
  "proposal.reopen": "reopened a proposal",
  "proposal.fold": "folded a twin proposal",
  "proposal.assign": "assigned a proposal",
  "proposal.unassign": "unassigned a proposal",
  "proposal.comment": "commented on a proposal",
  "proposal.request_changes": "requested changes to a proposal",
  "cfb.create": "created a CFB",
  "cfb.update": "updated a CFB",
  "cfb.merge": "merged CFBs",
  "cfb.merged_into": "merged a CFB into another",
  "cfb.endorse": "made a CFB shared",
  "cfb.revert": "reverted a CFB",
  "cfb.retire": "retired a CFB",
  "cfb.restore": "restored a CFB",
  "token.create": "created an API token",
  "token.revoke": "revoked an API token",
  "user.create": "created an account",
  "user.set_role": "changed an account's role",
  "user.disable": "disabled an account",
  "user.enable": "enabled an account",
  "user.delete": "deleted an account",
  "user.reset_password": "reset an account's password",
  "user.sign_in_throttled": "was throttled after failed sign-ins",
  "schedule.update": "changed a schedule",
  "routing_example.add": "taught the router a message's domain",
  "routing_example.remove": "removed a message the router had learned",
};

export const VIA_WORDS: Record<string, string> = {
  cookie: "in the dashboard",
  token: "with an API token",
  cli: "from the command line",
  system: "automatically",
};

/** Where a target's page is, when it has one. */
export function targetHref(type: string, id: string): string | null {
  if (type === "proposal") return `/proposals/${encodeURIComponent(id)}`;
  if (type === "cfb") return `/cfbs/${encodeURIComponent(id)}`;
  if (type === "user") return "/admin/users";
  if (type === "token") return "/admin/tokens";
  if (type === "schedule") return "/workflows";
  if (type === "routing_example") return "/admin/routing";
  return null;
}

/** Details as "key: value" lines; ids of known accounts read as their email. */
export function detailLines(details: unknown, nameOf: (id: string) => string | undefined): string[] {
  if (details === null || details === undefined) return [];
  if (typeof details !== "object" || Array.isArray(details)) return [String(details)];
  return Object.entries(details as Record<string, unknown>)
    .filter(([, v]) => v !== null && v !== undefined && !(typeof v === "object" && Object.keys(v).length === 0))
    .map(([k, v]) => {
      const text = typeof v === "string" ? (nameOf(v) ?? v) : typeof v === "object" ? JSON.stringify(v) : String(v);
      return `${k.replaceAll("_", " ")}: ${text}`;
    });
}

/** One CSV field: quoted when it has a comma, quote or line break; a leading = + - @ is defused for spreadsheets. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
