import { randomUUID } from "node:crypto";
import { DomainError } from "@solserver/contracts";
import { dateOf, type TSql } from "../sql";
import { rows, run, typed } from "../typed-sql";
import { asRole, type TAccount, type TAuditActor } from "./accounts";
import { insertAudit } from "./audit";
import type { TStore } from "./store";

// API tokens: minted and revoked with an audit event, looked up by hash on every token request
// (hot: the SQL driver); the Jam editor's list is a cold read (Prisma).

export type TTokenView = {
  id: string;
  user_id: string;
  user_email: string;
  name: string;
  prefix: string;
  created_ts: string;
  last_used_ts: string | null;
  revoked_ts: string | null;
  expires_ts: string | null;
};

/** A token with its account's email, as readToken reads it (listTokens passes Prisma's rows). */
type TTokenRow = NonNullable<Awaited<ReturnType<typeof readToken>>>;

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
    expires_ts: ts(row.expiresAt),
  };
}

async function readToken(tx: TSql, tokenId: string) {
  const [row] = await rows(
    tx,
    typed
      .selectFrom("ApiToken as t")
      .innerJoin("User as u", "u.id", "t.userId")
      .select([
        "t.id as id",
        "t.userId as userId",
        "u.email as userEmail",
        "t.name as name",
        "t.prefix as prefix",
        "t.createdAt as createdAt",
        "t.lastUsedAt as lastUsedAt",
        "t.revokedAt as revokedAt",
        "t.expiresAt as expiresAt",
      ])
      .where("t.id", "=", tokenId),
  );
  return row ?? null;
}

/** The token half of the account repository. */
export function apiTokenMethods({ prisma, sql }: TStore) {
  return {
    /** The live (not revoked, not expired) token with this hash, and its account; marks it used (every token request). */
    async byTokenHash(tokenHash: string, now: Date): Promise<TAccount | null> {
      const [token] = await rows(
        sql,
        typed
          .selectFrom("ApiToken as t")
          .innerJoin("User as u", "u.id", "t.userId")
          .select([
            "t.id as tokenId",
            "t.revokedAt as revokedAt",
            "t.expiresAt as expiresAt",
            "u.id as id",
            "u.email as email",
            "u.name as name",
            "u.role as role",
          ])
          .where("t.tokenHash", "=", tokenHash)
          .where("u.disabledAt", "is", null),
      );
      if (!token || token.revokedAt || (token.expiresAt !== null && dateOf(token.expiresAt) <= now)) return null;
      // Best effort: a lost update of lastUsedAt is harmless, a failed request would not be.
      await run(sql, typed.updateTable("ApiToken").set({ lastUsedAt: now }).where("id", "=", token.tokenId)).catch(
        () => undefined,
      );
      return { id: token.id, email: token.email, name: token.name, role: asRole(token.role) };
    },

    async createToken(
      t: {
        userId: string;
        name: string;
        prefix: string;
        tokenHash: string;
        createdById: string;
        expiresAt: Date | null;
      },
      audit: TAuditActor,
    ): Promise<TTokenView> {
      return sql.transaction(async (tx) => {
        const id = randomUUID();
        const now = new Date();
        const { userId, name, prefix, tokenHash, createdById, expiresAt } = t;
        await run(
          tx,
          typed
            .insertInto("ApiToken")
            .values({ id, userId, name, prefix, tokenHash, createdById, createdAt: now, expiresAt }),
        );
        await insertAudit(
          tx,
          [
            {
              ...audit,
              targetType: "token",
              targetId: id,
              details: {
                user_id: t.userId,
                name: t.name,
                prefix: t.prefix,
                ...(t.expiresAt ? { expires_ts: t.expiresAt.toISOString() } : {}),
              },
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
        const flipped = await run(
          tx,
          typed
            .updateTable("ApiToken")
            .set({ revokedAt: now })
            .where("id", "=", tokenId)
            .where("revokedAt", "is", null),
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
          expiresAt: true,
          user: { select: { email: true } },
        },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      });
      return rows.map((r) => toTokenView({ ...r, userEmail: r.user.email }));
    },
  };
}
