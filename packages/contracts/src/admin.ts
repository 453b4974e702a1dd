import { z } from "zod";
import { ZCfbDraft } from "./cfb";
import { ZCfbId, ZIsoDate } from "./ids";

// Jam-editor procedures: authoring CFBs, API tokens, accounts, the audit log.

export const ZRole = z.enum(["user", "jam"]);
export type TRole = z.infer<typeof ZRole>;

export const ZCfbCreateRequest = ZCfbDraft.strict();

/** An edit carries the version it was based on: a stale edit is CONFLICT, not a lost update. */
export const ZCfbUpdateRequest = ZCfbDraft.extend({ cfb_id: ZCfbId, version: z.number().int().positive() }).strict();

const ZUuid = z.uuid({ error: "must be an id as returned by the list" });

export const ZToken = z.object({
  id: z.string(),
  user_id: z.string(),
  user_email: z.string(),
  name: z.string(),
  prefix: z.string(),
  created_ts: ZIsoDate,
  last_used_ts: ZIsoDate.nullable(),
  revoked_ts: ZIsoDate.nullable(),
  /** After this the token authenticates nothing; null: until revoked. */
  expires_ts: ZIsoDate.nullable(),
});
export const ZTokenList = z.object({ items: z.array(ZToken) });
export const ZTokenCreateRequest = z
  .object({
    user_id: z.string().trim().min(1, { error: "must name the account the token acts as" }).max(64),
    name: z.string().trim().min(1, { error: "must not be empty" }).max(80, { error: "must be at most 80 characters" }),
    /** The token stops working this many days after it is created; absent: until revoked. */
    expires_in_days: z
      .number()
      .int({ error: "must be a whole number of days" })
      .min(1, { error: "must be between 1 and 3650 days" })
      .max(3650, { error: "must be between 1 and 3650 days" })
      .optional(),
  })
  .strict();
/** The plaintext `token` appears in this answer only; the server keeps its hash. */
export const ZTokenCreated = ZToken.extend({ token: z.string() });
export const ZTokenRevokeRequest = z.object({ token_id: ZUuid }).strict();

export const ZAccount = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: ZRole,
  created_ts: ZIsoDate,
  /** Set while the account is disabled (no sign-in, no session, no token). */
  disabled_ts: ZIsoDate.nullable(),
});
export const ZAccountList = z.object({ items: z.array(ZAccount) });
/** The shortest password an account may have (the sign-in library's rule, the form's, the API's). */
export const MIN_PASSWORD_LENGTH = 10;

export const ZAccountCreateRequest = z
  .object({
    email: z.email({ error: "must be an email address" }).max(254),
    name: z.string().trim().min(1, { error: "must not be empty" }).max(80),
    password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, { error: `must be at least ${MIN_PASSWORD_LENGTH} characters` })
      .max(128, { error: "must be at most 128 characters" }),
    role: ZRole.default("user"),
  })
  .strict();
export const ZAccountSetRoleRequest = z.object({ user_id: z.string().trim().min(1).max(64), role: ZRole }).strict();
export const ZAccountSetDisabledRequest = z
  .object({ user_id: z.string().trim().min(1).max(64), disabled: z.boolean() })
  .strict();
/** Deleting asks for the account's email again: a typo in an id must not delete someone. */
export const ZAccountDeleteRequest = z
  .object({ user_id: z.string().trim().min(1).max(64), confirm_email: z.string().trim().min(1).max(254) })
  .strict();
export const ZAccountResetPasswordRequest = z.object({ user_id: z.string().trim().min(1).max(64) }).strict();
/** The new password, in this answer only (give it to its owner; they should change it). */
export const ZAccountPasswordReset = z.object({ user_id: z.string(), email: z.string(), password: z.string() });
export const ZAccountDeleted = z.object({ user_id: z.string(), email: z.string() });

export const ZAuditEvent = z.object({
  id: z.string(),
  actor_user_id: z.string().nullable(),
  actor_email: z.string(),
  via: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  details: z.unknown(),
  created_ts: ZIsoDate,
});
export const ZAuditListRequest = z
  .object({
    target_type: z.enum(["proposal", "cfb", "token", "user", "schedule", "resolve_rule", "routing_example"]).optional(),
    target_id: z.string().trim().min(1).max(64).optional(),
    cursor: ZUuid.optional(),
    limit: z.number().int().min(1).max(100).default(50),
    // Sent by tRPC's infinite queries; pages always go newest to oldest.
    direction: z.enum(["forward", "backward"]).optional(),
  })
  .strict();
export const ZAuditList = z.object({ items: z.array(ZAuditEvent), next_cursor: z.string().nullable() });

/** Who is signed in, for the dashboard. */
export const ZMe = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: ZRole,
  via: z.enum(["cookie", "token", "cli"]),
});
export type TMe = z.infer<typeof ZMe>;

// Parsed requests, as a service receives them (defaults applied).
export type TAccountCreateRequest = z.output<typeof ZAccountCreateRequest>;
export type TAccountSetRoleRequest = z.output<typeof ZAccountSetRoleRequest>;
export type TTokenCreateRequest = z.output<typeof ZTokenCreateRequest>;
export type TTokenRevokeRequest = z.output<typeof ZTokenRevokeRequest>;
export type TAuditListRequest = z.output<typeof ZAuditListRequest>;
export type TCfbCreateRequest = z.output<typeof ZCfbCreateRequest>;
export type TCfbUpdateRequest = z.output<typeof ZCfbUpdateRequest>;
