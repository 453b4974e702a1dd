import { randomUUID } from "node:crypto";
import { DomainError } from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { dateOf, type TSql } from "../sql";
import { insertAudit, type TAuditWrite } from "./audit";
import type { TStore } from "./store";

// Accounts (better-auth owns their sign-in tables) and API tokens. Every request resolves its
// account (hot: the SQL driver); the Jam editor's lists are cold reads (Prisma).

export type TRole = "user" | "jam";
export type TAccount = { id: string; email: string; name: string; role: TRole };
export type TAccountRecord = TAccount & { created_ts: string; disabled_ts: string | null };

export type TTokenView = {
  id: string;
  user_id: string;
  user_email: string;
  name: string;
  prefix: string;
  created_ts: string;
  last_used_ts: string | null;
  revoked_ts: string | null;
};

type TAuditActor = Omit<TAuditWrite, "targetId" | "targetType" | "details">;

function asRole(role: string): TRole {
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

type TTokenRow = {
  id: string;
  userId: string;
  userEmail: string;
  name: string;
  prefix: string;
  createdAt: unknown;
  lastUsedAt: unknown;
  revokedAt: unknown;
};

function toTokenView(row: TTokenRow): TTokenView {
  const ts = (value: unknown) => (value === null || value === undefined ? null : dateOf(value).toISOString());
  return {
    id: row.id,
    user_id: row.userId,
    user_email: row.userEmail,
    name: row.name,
    prefix: row.prefix,
    created_ts: dateOf(row.createdAt).toISOString(),
    last_used_ts: ts(row.lastUsedAt),
    revoked_ts: ts(row.revokedAt),
  };
}

async function readToken(tx: TSql, tokenId: string): Promise<TTokenRow | null> {
  const [row] = await tx.query<TTokenRow>(
    Prisma.sql`SELECT t."id" AS "id", t."userId" AS "userId", u."email" AS "userEmail", t."name" AS "name",
        t."prefix" AS "prefix", t."createdAt" AS "createdAt", t."lastUsedAt" AS "lastUsedAt", t."revokedAt" AS "revokedAt"
      FROM "ApiToken" t JOIN "User" u ON u."id" = t."userId" WHERE t."id" = ${tokenId}`,
  );
  return row ?? null;
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

    /** The live (not revoked) token with this hash, and its account; marks it used (every token request). */
    async byTokenHash(tokenHash: string, now: Date): Promise<TAccount | null> {
      const [token] = await sql.query<{
        tokenId: string;
        revokedAt: unknown;
        id: string;
        email: string;
        name: string;
        role: string;
      }>(
        Prisma.sql`SELECT t."id" AS "tokenId", t."revokedAt" AS "revokedAt", u."id" AS "id", u."email" AS "email",
            u."name" AS "name", u."role" AS "role"
          FROM "ApiToken" t JOIN "User" u ON u."id" = t."userId"
          WHERE t."tokenHash" = ${tokenHash} AND u."disabledAt" IS NULL`,
      );
      if (!token || token.revokedAt) return null;
      // Best effort: a lost update of lastUsedAt is harmless, a failed request would not be.
      await sql
        .execute(Prisma.sql`UPDATE "ApiToken" SET "lastUsedAt" = ${now} WHERE "id" = ${token.tokenId}`)
        .catch(() => undefined);
      return { id: token.id, email: token.email, name: token.name, role: asRole(token.role) };
    },

    async createToken(
      t: { userId: string; name: string; prefix: string; tokenHash: string; createdById: string },
      audit: TAuditActor,
    ): Promise<TTokenView> {
      return sql.transaction(async (tx) => {
        const id = randomUUID();
        const now = new Date();
        await tx.execute(Prisma.sql`INSERT INTO "ApiToken" ("id", "userId", "name", "prefix", "tokenHash", "createdById", "createdAt")
          VALUES (${id}, ${t.userId}, ${t.name}, ${t.prefix}, ${t.tokenHash}, ${t.createdById}, ${now})`);
        await insertAudit(
          tx,
          [
            {
              ...audit,
              targetType: "token",
              targetId: id,
              details: { user_id: t.userId, name: t.name, prefix: t.prefix },
            },
          ],
          now,
        );
        const row = await readToken(tx, id);
        if (!row) throw new Error(`token ${id} was not written`);
        return toTokenView(row);
      });
    },

    async revokeToken(tokenId: string, now: Date, audit: TAuditActor): Promise<TTokenView> {
      return sql.transaction(async (tx) => {
        const flipped = await tx.execute(
          Prisma.sql`UPDATE "ApiToken" SET "revokedAt" = ${now} WHERE "id" = ${tokenId} AND "revokedAt" IS NULL`,
        );
        const row = await readToken(tx, tokenId);
        if (!row) throw new DomainError("NOT_FOUND", `token ${tokenId} does not exist`, { field: "token_id" });
        if (flipped !== 1)
          throw new DomainError("CONFLICT", `token ${tokenId} was already revoked`, { field: "token_id" });
        await insertAudit(
          tx,
          [{ ...audit, targetType: "token", targetId: tokenId, details: { prefix: row.prefix } }],
          now,
        );
        return toTokenView(row);
      });
    },

    async listTokens(): Promise<TTokenView[]> {
      const rows = await prisma.apiToken.findMany({
        select: {
          id: true,
          userId: true,
          name: true,
          prefix: true,
          createdAt: true,
          lastUsedAt: true,
          revokedAt: true,
          user: { select: { email: true } },
        },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      });
      return rows.map((r) => toTokenView({ ...r, userEmail: r.user.email }));
    },
  };
}
