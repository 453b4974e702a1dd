import { DomainError } from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { insertAudit, type TAuditWrite } from "./audit";
import type { TStore } from "./store";

// Accounts (better-auth owns their sign-in tables; API tokens are in api-tokens.ts). Every request resolves its
// account (hot: the SQL driver); the Jam editor's lists are cold reads (Prisma).

export type TRole = "user" | "jam";
export type TAccount = { id: string; email: string; name: string; role: TRole };
export type TAccountRecord = TAccount & { created_ts: string; disabled_ts: string | null };

export type TAuditActor = Omit<TAuditWrite, "targetId" | "targetType" | "details">;

export function asRole(role: string): TRole {
  return role === "jam" ? "jam" : "user";
}

const ACCOUNT_SELECT = { id: true, email: true, name: true, role: true, createdAt: true, disabledAt: true } as const;

function toAccountRecord(u: {
  id: string;
  email: string;
  name: string;
  role: string;
  createdAt: Date;
  disabledAt: Date | null;
}): TAccountRecord {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: asRole(u.role),
    created_ts: u.createdAt.toISOString(),
    disabled_ts: u.disabledAt?.toISOString() ?? null,
  };
}

export function accountRepository({ prisma, sql }: TStore) {
  return {
    /** The account of a session or token (every request); null for one that is gone or disabled. */
    async get(userId: string): Promise<TAccount | null> {
      const [u] = await sql.query<{ id: string; email: string; name: string; role: string }>(
        Prisma.sql`SELECT "id", "email", "name", "role" FROM "User" WHERE "id" = ${userId} AND "disabledAt" IS NULL`,
      );
      return u ? { ...u, role: asRole(u.role) } : null;
    },

    /**
     * Disables an account (its sessions end at once; it cannot sign in, its tokens are refused)
     * or enables it again, with an audit event; one transaction. A no-op change is CONFLICT.
     */
    async setDisabled(userId: string, disabled: boolean, audit: Omit<TAuditActor, "action">): Promise<void> {
      await sql.transaction(async (tx) => {
        const now = new Date();
        const flipped = await tx.execute(
          disabled
            ? Prisma.sql`UPDATE "User" SET "disabledAt" = ${now}, "updatedAt" = ${now} WHERE "id" = ${userId} AND "disabledAt" IS NULL`
            : Prisma.sql`UPDATE "User" SET "disabledAt" = NULL, "updatedAt" = ${now} WHERE "id" = ${userId} AND "disabledAt" IS NOT NULL`,
        );
        if (flipped !== 1) {
          const [exists] = await tx.query(Prisma.sql`SELECT 1 AS "one" FROM "User" WHERE "id" = ${userId}`);
          if (!exists) throw new DomainError("NOT_FOUND", `user ${userId} does not exist`, { field: "user_id" });
          throw new DomainError("CONFLICT", `user ${userId} is already ${disabled ? "disabled" : "enabled"}`, {
            field: "disabled",
          });
        }
        if (disabled) await tx.execute(Prisma.sql`DELETE FROM "Session" WHERE "userId" = ${userId}`);
        await insertAudit(
          tx,
          [
            {
              ...audit,
              action: disabled ? "user.disable" : "user.enable",
              targetType: "user",
              targetId: userId,
              details: {},
            },
          ],
          now,
        );
      });
    },

    /** The id of the disabled account with this email, or null (none, or enabled). */
    async disabledByEmail(email: string): Promise<string | null> {
      const [u] = await sql.query<{ id: string }>(
        Prisma.sql`SELECT "id" AS "id" FROM "User" WHERE "email" = ${email} AND "disabledAt" IS NOT NULL`,
      );
      return u?.id ?? null;
    },

    /** Ends every session of an account (a disabled one that just signed in with the right password). */
    async endSessions(userId: string): Promise<void> {
      await sql.execute(Prisma.sql`DELETE FROM "Session" WHERE "userId" = ${userId}`);
    },

    /** After a password reset: the account's sessions end, and the reset is audited (never the password). */
    async passwordReset(userId: string, audit: Omit<TAuditActor, "action">): Promise<void> {
      await sql.transaction(async (tx) => {
        const now = new Date();
        await tx.execute(Prisma.sql`DELETE FROM "Session" WHERE "userId" = ${userId}`);
        await insertAudit(
          tx,
          [{ ...audit, action: "user.reset_password", targetType: "user", targetId: userId, details: {} }],
          now,
        );
      });
    },

    /**
     * Deletes an account: its sessions, sign-in and tokens go with it; its threads stay, without
     * an owner (Jam editors only, like threads from before accounts), and its queue counts move
     * with them (proposal-counts.ts), all in one transaction with the audit event (which keeps
     * the email, the only trace of who it was).
     */
    async remove(userId: string, audit: Omit<TAuditActor, "action">): Promise<{ email: string }> {
      return sql.transaction(async (tx) => {
        const [u] = await tx.query<{ email: string }>(
          Prisma.sql`SELECT "email" AS "email" FROM "User" WHERE "id" = ${userId}`,
        );
        if (!u) throw new DomainError("NOT_FOUND", `user ${userId} does not exist`, { field: "user_id" });
        const now = new Date();
        await tx.execute(Prisma.sql`INSERT INTO "ProposalCount" ("ownerKey", "kind", "n")
          SELECT '', "kind", "n" FROM "ProposalCount" WHERE "ownerKey" = ${userId}
          ON CONFLICT ("ownerKey", "kind") DO UPDATE SET "n" = "ProposalCount"."n" + excluded."n"`);
        await tx.execute(Prisma.sql`DELETE FROM "ProposalCount" WHERE "ownerKey" = ${userId}`);
        await tx.execute(Prisma.sql`UPDATE "Thread" SET "ownerId" = NULL WHERE "ownerId" = ${userId}`);
        await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "assigneeId" = NULL WHERE "assigneeId" = ${userId}`);
        await tx.execute(Prisma.sql`DELETE FROM "Session" WHERE "userId" = ${userId}`);
        await tx.execute(Prisma.sql`DELETE FROM "Account" WHERE "userId" = ${userId}`);
        await tx.execute(Prisma.sql`DELETE FROM "ApiToken" WHERE "userId" = ${userId}`);
        await tx.execute(Prisma.sql`DELETE FROM "User" WHERE "id" = ${userId}`);
        await insertAudit(
          tx,
          [{ ...audit, action: "user.delete", targetType: "user", targetId: userId, details: { email: u.email } }],
          now,
        );
        return { email: u.email };
      });
    },

    async byEmail(email: string): Promise<TAccount | null> {
      const u = await prisma.user.findUnique({
        where: { email },
        select: { id: true, email: true, name: true, role: true },
      });
      return u ? { ...u, role: asRole(u.role) } : null;
    },

    async list(): Promise<TAccountRecord[]> {
      const rows = await prisma.user.findMany({
        select: ACCOUNT_SELECT,
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      });
      return rows.map(toAccountRecord);
    },

    /** One account as the user list shows it. */
    async record(userId: string): Promise<TAccountRecord | null> {
      const u = await prisma.user.findUnique({ where: { id: userId }, select: ACCOUNT_SELECT });
      return u ? toAccountRecord(u) : null;
    },

    async setRole(userId: string, role: TRole, audit: TAuditActor): Promise<void> {
      await sql.transaction(async (tx) => {
        const now = new Date();
        const updated = await tx.execute(
          Prisma.sql`UPDATE "User" SET "role" = ${role}, "updatedAt" = ${now} WHERE "id" = ${userId}`,
        );
        if (updated !== 1) throw new DomainError("NOT_FOUND", `user ${userId} does not exist`, { field: "user_id" });
        await insertAudit(tx, [{ ...audit, targetType: "user", targetId: userId, details: { role } }], now);
      });
    },
  };
}
