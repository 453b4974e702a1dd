import { randomUUID } from "node:crypto";
import { DomainError } from "@solserver/contracts";
import type { DbClient } from "../client";
import { type TAuditWrite, writeAudit } from "./audit";

export type TRole = "user" | "jam";
export type TAccount = { id: string; email: string; name: string; role: TRole };

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

function asRole(role: string): TRole {
  return role === "jam" ? "jam" : "user";
}

export async function getAccount(db: DbClient, userId: string): Promise<TAccount | null> {
  const u = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, name: true, role: true },
  });
  return u ? { ...u, role: asRole(u.role) } : null;
}

export async function findAccountByEmail(db: DbClient, email: string): Promise<TAccount | null> {
  const u = await db.user.findUnique({ where: { email }, select: { id: true, email: true, name: true, role: true } });
  return u ? { ...u, role: asRole(u.role) } : null;
}

export type TAccountRecord = TAccount & { created_ts: string };

function toAccountRecord(u: {
  id: string;
  email: string;
  name: string;
  role: string;
  createdAt: Date;
}): TAccountRecord {
  return { id: u.id, email: u.email, name: u.name, role: asRole(u.role), created_ts: u.createdAt.toISOString() };
}

export async function listAccounts(db: DbClient): Promise<TAccountRecord[]> {
  const rows = await db.user.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toAccountRecord);
}

/** One account as the user list shows it. */
export async function getAccountRecord(db: DbClient, userId: string): Promise<TAccountRecord | null> {
  const u = await db.user.findUnique({ where: { id: userId } });
  return u ? toAccountRecord(u) : null;
}

export async function setRole(
  db: DbClient,
  userId: string,
  role: TRole,
  audit: Omit<TAuditWrite, "targetId" | "targetType" | "details">,
) {
  return db.$transaction(async (tx) => {
    const updated = await tx.user.updateMany({ where: { id: userId }, data: { role } });
    if (updated.count !== 1) throw new DomainError("NOT_FOUND", `user ${userId} does not exist`, { field: "user_id" });
    await writeAudit(tx, { ...audit, targetType: "user", targetId: userId, details: { role } });
  });
}

/** The live (not revoked) token with this hash, and its account; marks it used. */
export async function accountForTokenHash(db: DbClient, tokenHash: string, now: Date): Promise<TAccount | null> {
  const token = await db.apiToken.findUnique({
    where: { tokenHash },
    select: { id: true, revokedAt: true, user: { select: { id: true, email: true, name: true, role: true } } },
  });
  if (!token || token.revokedAt) return null;
  // Best effort: a lost update of lastUsedAt is harmless, a failed request would not be.
  await db.apiToken.update({ where: { id: token.id }, data: { lastUsedAt: now } }).catch(() => undefined);
  return { ...token.user, role: asRole(token.user.role) };
}

export async function createToken(
  db: DbClient,
  t: { userId: string; name: string; prefix: string; tokenHash: string; createdById: string },
  audit: Omit<TAuditWrite, "targetId" | "targetType" | "details">,
): Promise<TTokenView> {
  return db.$transaction(async (tx) => {
    const id = randomUUID();
    const row = await tx.apiToken.create({ data: { id, ...t }, include: { user: { select: { email: true } } } });
    await writeAudit(tx, {
      ...audit,
      targetType: "token",
      targetId: id,
      details: { user_id: t.userId, name: t.name, prefix: t.prefix },
    });
    return toTokenView(row);
  });
}

export async function revokeToken(
  db: DbClient,
  tokenId: string,
  now: Date,
  audit: Omit<TAuditWrite, "targetId" | "targetType" | "details">,
): Promise<TTokenView> {
  return db.$transaction(async (tx) => {
    const flipped = await tx.apiToken.updateMany({ where: { id: tokenId, revokedAt: null }, data: { revokedAt: now } });
    const row = await tx.apiToken.findUnique({
      where: { id: tokenId },
      include: { user: { select: { email: true } } },
    });
    if (!row) throw new DomainError("NOT_FOUND", `token ${tokenId} does not exist`, { field: "token_id" });
    if (flipped.count !== 1)
      throw new DomainError("CONFLICT", `token ${tokenId} was already revoked`, { field: "token_id" });
    await writeAudit(tx, { ...audit, targetType: "token", targetId: tokenId, details: { prefix: row.prefix } });
    return toTokenView(row);
  });
}

export async function listTokens(db: DbClient): Promise<TTokenView[]> {
  const rows = await db.apiToken.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: { user: { select: { email: true } } },
  });
  return rows.map(toTokenView);
}

function toTokenView(row: {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  user: { email: string };
}): TTokenView {
  return {
    id: row.id,
    user_id: row.userId,
    user_email: row.user.email,
    name: row.name,
    prefix: row.prefix,
    created_ts: row.createdAt.toISOString(),
    last_used_ts: row.lastUsedAt?.toISOString() ?? null,
    revoked_ts: row.revokedAt?.toISOString() ?? null,
  };
}
