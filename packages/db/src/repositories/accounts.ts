import { DomainError } from "@solserver/contracts";
import type { TSqlDriver } from "../sql";
import { rows, run, typed } from "../typed-sql";
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

async function setAccountDisabled(
  sql: TSqlDriver,
  userId: string,
  disabled: boolean,
  audit: Omit<TAuditActor, "action">,
): Promise<void> {
  await sql.transaction(async (tx) => {
    const now = new Date();
    const flipped = await run(
      tx,
      typed
        .updateTable("User")
        .set({ disabledAt: disabled ? now : null, updatedAt: now })
        .where("id", "=", userId)
        .where("disabledAt", disabled ? "is" : "is not", null),
    );
    if (flipped !== 1) {
      const [exists] = await rows(
        tx,
        typed
          .selectFrom("User")
          .select((eb) => eb.lit(1).as("one"))
          .where("id", "=", userId),
      );
      if (!exists) throw new DomainError("NOT_FOUND", `user ${userId} does not exist`, { field: "user_id" });
      throw new DomainError("CONFLICT", `user ${userId} is already ${disabled ? "disabled" : "enabled"}`, {
        field: "disabled",
      });
    }
    if (disabled) await run(tx, typed.deleteFrom("Session").where("userId", "=", userId));
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
}

async function removeAccount(
  sql: TSqlDriver,
  userId: string,
  audit: Omit<TAuditActor, "action">,
): Promise<{ email: string }> {
  return sql.transaction(async (tx) => {
    const [u] = await rows(tx, typed.selectFrom("User").select("email").where("id", "=", userId));
    if (!u) throw new DomainError("NOT_FOUND", `user ${userId} does not exist`, { field: "user_id" });
    const now = new Date();
    await run(
      tx,
      typed
        .insertInto("ProposalCount")
        .columns(["ownerKey", "kind", "n"])
        .expression(
          typed
            .selectFrom("ProposalCount")
            .select((eb) => [eb.val("").as("ownerKey"), "kind", "n"])
            .where("ownerKey", "=", userId),
        )
        .onConflict((conflict) =>
          conflict
            .columns(["ownerKey", "kind"])
            .doUpdateSet((eb) => ({ n: eb("ProposalCount.n", "+", eb.ref("excluded.n")) })),
        ),
    );
    await run(tx, typed.deleteFrom("ProposalCount").where("ownerKey", "=", userId));
    await run(tx, typed.updateTable("Thread").set({ ownerId: null }).where("ownerId", "=", userId));
    await run(tx, typed.updateTable("UmbraProposal").set({ assigneeId: null }).where("assigneeId", "=", userId));
    await run(tx, typed.deleteFrom("Session").where("userId", "=", userId));
    await run(tx, typed.deleteFrom("Account").where("userId", "=", userId));
    await run(tx, typed.deleteFrom("ApiToken").where("userId", "=", userId));
    await run(tx, typed.deleteFrom("User").where("id", "=", userId));
    await insertAudit(
      tx,
      [{ ...audit, action: "user.delete", targetType: "user", targetId: userId, details: { email: u.email } }],
      now,
    );
    return { email: u.email };
  });
}

export function accountRepository({ prisma, sql }: TStore) {
  return {
    /** The account of a session or token (every request); null for one that is gone or disabled. */
    async get(userId: string): Promise<TAccount | null> {
      const [u] = await rows(
        sql,
        typed
          .selectFrom("User")
          .select(["id", "email", "name", "role"])
          .where("id", "=", userId)
          .where("disabledAt", "is", null),
      );
      return u ? { ...u, role: asRole(u.role) } : null;
    },

    /**
     * Disables an account (its sessions end at once; it cannot sign in, its tokens are refused)
     * or enables it again, with an audit event; one transaction. A no-op change is CONFLICT.
     */
    setDisabled(userId: string, disabled: boolean, audit: Omit<TAuditActor, "action">): Promise<void> {
      return setAccountDisabled(sql, userId, disabled, audit);
    },

    /** The id of the disabled account with this email, or null (none, or enabled). */
    async disabledByEmail(email: string): Promise<string | null> {
      const [u] = await rows(
        sql,
        typed.selectFrom("User").select("id").where("email", "=", email).where("disabledAt", "is not", null),
      );
      return u?.id ?? null;
    },

    /** Ends every session of an account (a disabled one that just signed in with the right password). */
    async endSessions(userId: string): Promise<void> {
      await run(sql, typed.deleteFrom("Session").where("userId", "=", userId));
    },

    /** After a password reset: the account's sessions end, and the reset is audited (never the password). */
    async passwordReset(userId: string, audit: Omit<TAuditActor, "action">): Promise<void> {
      await sql.transaction(async (tx) => {
        const now = new Date();
        await run(tx, typed.deleteFrom("Session").where("userId", "=", userId));
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
    remove(userId: string, audit: Omit<TAuditActor, "action">): Promise<{ email: string }> {
      return removeAccount(sql, userId, audit);
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
        const updated = await run(tx, typed.updateTable("User").set({ role, updatedAt: now }).where("id", "=", userId));
        if (updated !== 1) throw new DomainError("NOT_FOUND", `user ${userId} does not exist`, { field: "user_id" });
        await insertAudit(tx, [{ ...audit, targetType: "user", targetId: userId, details: { role } }], now);
      });
    },
  };
}
