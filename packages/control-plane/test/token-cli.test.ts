// `pnpm token` (issue 39): a Jam editor mints, lists and revokes an API token for a service
// account without a browser, on a real SQLite file, with the same checks and audit as the page;
// the token printed works as a Bearer token and stops working once revoked.
import { createTestDatabase, type TTestDatabase } from "@solserver/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPasswordAccount } from "../src/auth/auth";
import { runTokenCli } from "../src/auth/token-cli";
import { openControlPlaneFromEnv } from "../src/control-plane";
import { loadServerEnv } from "../src/env";
import { actorFromBearer } from "../src/services/actors";

let database: TTestDatabase;
const SECRET = "test-secret-test-secret-test-secret-0123";
const env = () => ({ BETTER_AUTH_SECRET: SECRET, DATABASE_URL: database.url, SOLSERVER_EMBEDDINGS: "off" });

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runTokenCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: env() });
  return { code, out, err };
}

beforeAll(async () => {
  database = await createTestDatabase("token-cli");
  const opened = await openControlPlaneFromEnv(loadServerEnv(env()));
  const auth = opened.auth as NonNullable<typeof opened.auth>;
  await createPasswordAccount(auth, {
    email: "jam@ci.test",
    name: "Jam",
    password: "password-long-enough-1",
    role: "jam",
  });
  await createPasswordAccount(auth, {
    email: "svc@ci.test",
    name: "CI",
    password: "password-long-enough-2",
    role: "user",
  });
  await opened.db.$disconnect();
});
afterAll(async () => database?.cleanup());

describe("pnpm token", () => {
  it("creates a token for a service account, printed once, that authenticates as that account", async () => {
    const created = await cli("create", "--as", "jam@ci.test", "--for", "svc@ci.test", "--name", "ci pipeline");
    expect(created).toMatchObject({ code: 0 });
    expect(created.err[0]).toMatch(/^created \S+ "ci pipeline" for svc@ci.test; shown once/);
    const token = created.out[0] as string;
    const listed = await cli("list", "--as", "jam@ci.test");
    expect(listed.out.join("\n")).toContain("ci pipeline  for svc@ci.test  active");
    expect(listed.out.join("\n")).not.toContain(token);

    const opened = await openControlPlaneFromEnv(loadServerEnv(env()));
    try {
      expect(await actorFromBearer(opened.deps, token)).toMatchObject({ email: "svc@ci.test", via: "token" });
      const id = (listed.out[0] as string).split(" ")[0] as string;
      expect(await cli("revoke", id, "--as", "jam@ci.test")).toMatchObject({ code: 0 });
      expect(await actorFromBearer(opened.deps, token)).toEqual({ kind: "anonymous" });
      const audit = await opened.db.auditEvent.findMany({ where: { targetType: "token" }, orderBy: { id: "asc" } });
      expect(audit.map((a) => [a.action, a.via])).toEqual([
        ["token.create", "cli"],
        ["token.revoke", "cli"],
      ]);
    } finally {
      await opened.db.$disconnect();
    }
  });

  it("--expires: the token works until then and not after, and the list says when it expires", async () => {
    const created = await cli(
      "create",
      "--as",
      "jam@ci.test",
      "--for",
      "svc@ci.test",
      "--name",
      "quarterly export",
      "--expires",
      "90d",
    );
    expect(created.code).toBe(0);
    const expires = /, expires (\S+); shown once/.exec(created.err[0] ?? "")?.[1] as string;
    const opened = await openControlPlaneFromEnv(loadServerEnv(env()));
    try {
      const at = (days: number) => ({ ...opened.deps, now: () => new Date(Date.now() + days * 86_400_000) });
      expect(new Date(expires).getTime()).toBeGreaterThan(at(89).now().getTime());
      expect(new Date(expires).getTime()).toBeLessThan(at(91).now().getTime());
      const token = created.out[0] as string;
      expect(await actorFromBearer(at(89), token)).toMatchObject({ email: "svc@ci.test" });
      expect(await actorFromBearer(at(91), token)).toEqual({ kind: "anonymous" });
      expect((await cli("list", "--as", "jam@ci.test")).out.join("\n")).toContain(
        `quarterly export  for svc@ci.test  expires ${expires}`,
      );
    } finally {
      await opened.db.$disconnect();
    }
    const bad = await cli("create", "--as", "jam@ci.test", "--for", "svc@ci.test", "--name", "x", "--expires", "soon");
    expect(bad).toMatchObject({ code: 2 });
    expect(bad.err[0]).toMatch(/^--expires: must be a number of days from 1, such as 90d\nusage:/);
    const zero = await cli("create", "--as", "jam@ci.test", "--for", "svc@ci.test", "--name", "x", "--expires", "0d");
    expect(zero.code).toBe(2);
    const far = await cli("create", "--as", "jam@ci.test", "--for", "svc@ci.test", "--name", "x", "--expires", "9999d");
    expect(far.err[0]).toBe("refused (BAD_INPUT): expires_in_days: must be between 1 and 3650 days");
  });

  it("refuses who may not, what does not exist and a bad command, with the reason and an exit code", async () => {
    expect(await cli("create", "--as", "svc@ci.test", "--for", "svc@ci.test", "--name", "x")).toMatchObject({
      code: 2,
      err: ["--as svc@ci.test: is not a Jam editor; API tokens are Jam editors' to manage"],
    });
    expect((await cli("create", "--as", "jam@ci.test", "--for", "nobody@ci.test", "--name", "x")).err[0]).toBe(
      "--for nobody@ci.test: no such account (create it at /admin/users first)",
    );
    expect((await cli("create", "--as", "jam@ci.test", "--for", "svc@ci.test", "--name", " ")).err[0]).toBe(
      "refused (BAD_INPUT): name: must not be empty",
    );
    const usage = await cli("mint", "--as", "jam@ci.test");
    expect(usage.code).toBe(2);
    expect(usage.err[0]).toMatch(/^unknown command "mint"\nusage: pnpm token create/);
  });
});
