// Account administration by a Jam editor (issue 23): disabling ends the account's sessions and
// refuses its sign-in and its tokens until it is enabled again; a password reset hands out a
// new password (the old one stops working); deleting keeps the account's threads, without an
// owner, and their queue counts; nobody disables or deletes their own account.
import { respondToTurn } from "@solserver/control-plane";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInnerContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { openWebServer, type TWebAccount, type TWebServer } from "./helpers";
import { trpcHttp } from "./http-client";

let web: TWebServer;
let jam: TWebAccount;
let n = 0;
const callerAs = (who: TWebAccount) => createCaller(createInnerContext({ deps: web.deps, actor: who.actor }));
const me = (headers: Record<string, string>) => trpcHttp(web, "me.get", "query", undefined, headers);

beforeAll(async () => {
  web = await openWebServer("web-account-admin");
  jam = await web.account("jam", "jam");
});
afterAll(async () => web?.close());

describe("disabling an account", () => {
  it("ends its sessions, refuses its sign-in and its token, and enabling restores them", async () => {
    const carol = await web.account("user", `carol${++n}`);
    const cookie = await web.browser(carol);
    const token = await web.bearer(jam, carol);
    expect((await me(cookie)).status).toBe(200);

    const disabled = await callerAs(jam).users.setDisabled({ user_id: carol.userId, disabled: true });
    expect(disabled.disabled_ts).not.toBeNull();
    expect((await me(cookie)).status).toBe(401);
    expect((await me(token)).status).toBe(401);
    const refused = await web.signIn(carol.email, carol.password);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toContain("disabled");
    expect(
      refused.headers
        .getSetCookie()
        .some((c) => c.startsWith("better-auth.session_token=") && !c.includes("Max-Age=0")),
    ).toBe(false);
    expect(await web.db.session.count({ where: { userId: carol.userId } })).toBe(0);
    // A wrong password reads as any wrong password: nothing says the account exists.
    expect((await web.signIn(carol.email, "not-the-password")).status).toBe(401);

    await expect(callerAs(jam).users.setDisabled({ user_id: carol.userId, disabled: true })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await callerAs(jam).users.setDisabled({ user_id: carol.userId, disabled: false });
    expect((await web.signIn(carol.email, carol.password)).status).toBe(200);
    expect((await me(token)).status).toBe(200);
    const audit = await web.db.auditEvent.findMany({
      where: { targetId: carol.userId },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(["user.disable", "user.enable"]));
  });

  it("a Jam editor cannot disable or delete their own account", async () => {
    await expect(callerAs(jam).users.setDisabled({ user_id: jam.userId, disabled: true })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("your own account"),
    });
    await expect(callerAs(jam).users.delete({ user_id: jam.userId, confirm_email: jam.email })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});

describe("resetting a password", () => {
  it("gives a new password once; the old one and the old sessions stop working", async () => {
    const dave = await web.account("user", `dave${++n}`);
    const cookie = await web.browser(dave);
    const reset = await callerAs(jam).users.resetPassword({ user_id: dave.userId });
    expect(reset.email).toBe(dave.email);
    expect((await me(cookie)).status).toBe(401);
    expect((await web.signIn(dave.email, dave.password)).status).toBe(401);
    expect((await web.signIn(dave.email, reset.password)).status).toBe(200);
    const audit = await web.db.auditEvent.findFirst({
      where: { targetId: dave.userId, action: "user.reset_password" },
    });
    expect(JSON.stringify(audit?.details)).not.toContain(reset.password);
  });
});

describe("deleting an account", () => {
  it("asks for its email, keeps its threads without an owner, and moves their counts to the Jam editors' queue", async () => {
    const erin = await web.account("user", `erin${++n}`);
    const turn = await respondToTurn(web.as(erin.actor), {
      request_id: `admin-${n}`,
      message: "We decided to water the ferns every Tuesday.",
    });
    const before = await callerAs(jam).proposals.list({ limit: 1 });
    await expect(
      callerAs(jam).users.delete({ user_id: erin.userId, confirm_email: "someone@else.test" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("confirm_email") });

    const deleted = await callerAs(jam).users.delete({ user_id: erin.userId, confirm_email: erin.email.toUpperCase() });
    expect(deleted).toEqual({ user_id: erin.userId, email: erin.email });
    expect(await web.db.user.findUnique({ where: { id: erin.userId } })).toBeNull();
    expect((await web.db.thread.findUniqueOrThrow({ where: { id: turn.thread_id } })).ownerId).toBeNull();
    // The Jam editors' queue still counts the proposal, now from a thread without an owner.
    expect((await callerAs(jam).proposals.list({ limit: 1 })).counts).toEqual(before.counts);
    const kept = await web.db.proposalCount.findMany({ where: { ownerKey: erin.userId } });
    expect(kept).toEqual([]);
    expect((await web.signIn(erin.email, erin.password)).status).toBe(401);
    const audit = await web.db.auditEvent.findFirst({ where: { targetId: erin.userId, action: "user.delete" } });
    expect(audit?.details).toMatchObject({ email: erin.email });
  });
});
