import {
  ZAccount,
  ZAccountCreateRequest,
  ZAccountList,
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
import { z } from "zod";
import { jamProcedure, router, signedInProcedure } from "../init";

export const meRouter = router({
  /** Who is signed in (the dashboard's header). */
  get: signedInProcedure
    .input(z.void())
    .output(ZMe)
    .query(({ ctx }) => ctx.controlPlane.me(ctx.actor)),
});

export const tokensRouter = router({
  list: jamProcedure
    .input(z.void())
    .output(ZTokenList)
    .query(({ ctx }) => ctx.controlPlane.tokens.list(ctx.actor)),
  /** The plaintext token is in this answer only. */
  create: jamProcedure
    .input(ZTokenCreateRequest)
    .output(ZTokenCreated)
    .mutation(({ ctx, input }) => ctx.controlPlane.tokens.create(ctx.actor, input)),
  revoke: jamProcedure
    .input(ZTokenRevokeRequest)
    .output(ZToken)
    .mutation(({ ctx, input }) => ctx.controlPlane.tokens.revoke(ctx.actor, input.token_id)),
});

export const usersRouter = router({
  list: jamProcedure
    .input(z.void())
    .output(ZAccountList)
    .query(({ ctx }) => ctx.controlPlane.users.list(ctx.actor)),
  create: jamProcedure
    .input(ZAccountCreateRequest)
    .output(ZAccount)
    .mutation(({ ctx, input }) => ctx.controlPlane.users.create(ctx.actor, input)),
  setRole: jamProcedure
    .input(ZAccountSetRoleRequest)
    .output(z.object({ user_id: z.string(), role: ZRole }))
    .mutation(({ ctx, input }) => ctx.controlPlane.users.setRole(ctx.actor, input)),
});

export const auditRouter = router({
  /** Who did what to which CFB, proposal, token or user. */
  list: jamProcedure
    .input(ZAuditListRequest)
    .output(ZAuditList)
    .query(({ ctx, input }) => ctx.controlPlane.audit.list(ctx.actor, input)),
});
