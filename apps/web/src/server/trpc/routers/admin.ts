import {
  ZAccount,
  ZAccountCreateRequest,
  ZAccountDeleted,
  ZAccountDeleteRequest,
  ZAccountList,
  ZAccountPasswordReset,
  ZAccountResetPasswordRequest,
  ZAccountSetDisabledRequest,
  ZAccountSetRoleRequest,
  ZAuditList,
  ZAuditListRequest,
  ZMe,
  ZRole,
  ZToken,
  ZTokenCreated,
  ZTokenCreateRequest,
  ZTokenList,
  ZTokenRevokeRequest,
} from "@solserver/contracts";
import {
  createAccount,
  createToken,
  deleteAccount,
  listAccounts,
  listAudit,
  listTokens,
  me,
  resetAccountPassword,
  revokeToken,
  setAccountDisabled,
  setAccountRole,
} from "@solserver/control-plane";
import { z } from "zod";
import { jamProcedure, router, signedInProcedure } from "../init";

export const meRouter = router({
  /** Who is signed in (the dashboard's header). */
  get: signedInProcedure
    .input(z.void())
    .output(ZMe)
    .query(({ ctx }) => me(ctx)),
});

export const tokensRouter = router({
  list: jamProcedure
    .input(z.void())
    .output(ZTokenList)
    .query(({ ctx }) => listTokens(ctx)),
  /** The plaintext token is in this answer only. */
  create: jamProcedure
    .input(ZTokenCreateRequest)
    .output(ZTokenCreated)
    .mutation(({ ctx, input }) => createToken(ctx, input)),
  revoke: jamProcedure
    .input(ZTokenRevokeRequest)
    .output(ZToken)
    .mutation(({ ctx, input }) => revokeToken(ctx, input)),
});

export const usersRouter = router({
  list: jamProcedure
    .input(z.void())
    .output(ZAccountList)
    .query(({ ctx }) => listAccounts(ctx)),
  create: jamProcedure
    .input(ZAccountCreateRequest)
    .output(ZAccount)
    .mutation(({ ctx, input }) => createAccount(ctx, input)),
  setRole: jamProcedure
    .input(ZAccountSetRoleRequest)
    .output(z.object({ user_id: z.string(), role: ZRole }))
    .mutation(({ ctx, input }) => setAccountRole(ctx, input)),
  /** Disables an account (its sessions end, its tokens are refused) or enables it again. */
  setDisabled: jamProcedure
    .input(ZAccountSetDisabledRequest)
    .output(ZAccount)
    .mutation(({ ctx, input }) => setAccountDisabled(ctx, input)),
  /** Deletes an account (confirm_email must be its email); its threads stay, without an owner. */
  delete: jamProcedure
    .input(ZAccountDeleteRequest)
    .output(ZAccountDeleted)
    .mutation(({ ctx, input }) => deleteAccount(ctx, input)),
  /** A new random password, in this answer only; the account's sessions end. */
  resetPassword: jamProcedure
    .input(ZAccountResetPasswordRequest)
    .output(ZAccountPasswordReset)
    .mutation(({ ctx, input }) => resetAccountPassword(ctx, input)),
});

export const auditRouter = router({
  /** Who did what to which CFB, proposal, token or user. */
  list: jamProcedure
    .input(ZAuditListRequest)
    .output(ZAuditList)
    .query(({ ctx, input }) => listAudit(ctx, input)),
});
