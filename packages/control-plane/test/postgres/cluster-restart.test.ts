// PostgreSQL stopped and started under a running control plane (issue 38, point 5): while the
// server is down every call is UNAVAILABLE (503 with Retry-After on the transports) and readiness
// says the database is unavailable; idle connections the server ended raise no uncaught error;
// once it is back the same process serves turns again without a restart. A cluster of its own
// (scripts/postgres-cluster.sh), since the shared one serves every other test file.
// Included only when SOLSERVER_TEST_POSTGRES_URL names a server (vitest.config.ts).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isDomainError } from "@solserver/contracts";
import { migrateDatabase, repositoryRoot } from "@solserver/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseUnavailable, openControlPlane, readiness, respondToTurn, type TActor } from "../../src/index";

const SCRIPT = path.join(repositoryRoot(), "scripts/postgres-cluster.sh");
const dir = mkdtempSync(path.join(tmpdir(), "solserver-restart-pg-"));
let port = "auto";

function cluster(action: "start" | "stop"): string {
  const run = spawnSync("bash", [SCRIPT, action, dir, port], {
    encoding: "utf8",
    env: { ...process.env, PG_FSYNC: "off" },
  });
  if (run.status !== 0) throw new Error(`postgres-cluster.sh ${action}: ${run.stderr}`);
  return run.stdout.trim();
}

let server: Awaited<ReturnType<typeof openControlPlane>>;
let caller: Extract<TActor, { kind: "user" }>;
const uncaught: unknown[] = [];
const record = (error: unknown) => uncaught.push(error);
let n = 0;

beforeAll(async () => {
  const url = cluster("start");
  port = new URL(url).port; // the same port when it starts again
  await migrateDatabase(url);
  server = await openControlPlane({ databaseUrl: url });
  const user = await server.db.user.create({ data: { id: "u-restart", name: "Restart", email: "restart@test.local" } });
  caller = { kind: "user", userId: user.id, email: user.email, role: "user", via: "cookie" };
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
}, 120_000);

afterAll(async () => {
  process.off("uncaughtException", record);
  process.off("unhandledRejection", record);
  await server?.db.$disconnect();
  cluster("stop");
  rmSync(dir, { recursive: true, force: true });
});

const turn = () =>
  respondToTurn({ deps: server.deps, caller }, { request_id: `restart-${++n}`, message: "When is the team standup?" });

describe("PostgreSQL stopped and started under a running server", () => {
  it("says UNAVAILABLE while it is down, and serves again once it is back, without a restart", {
    timeout: 120_000,
  }, async () => {
    expect((await turn()).assistant_text.length).toBeGreaterThan(0);
    expect((await readiness(server.deps)).checks.database).toBe("ok");

    cluster("stop");
    const failure = await turn().then(
      () => null,
      (error: unknown) => databaseUnavailable(error) ?? error,
    );
    expect(isDomainError(failure) && failure.code).toBe("UNAVAILABLE");
    expect(await readiness(server.deps)).toMatchObject({ ok: false, checks: { database: "unavailable" } });

    cluster("start");
    expect((await turn()).assistant_text.length).toBeGreaterThan(0);
    expect((await readiness(server.deps)).checks.database).toBe("ok");
    // The pool's connections the stop ended were dropped quietly, not thrown at the process, and
    // no background work (index sync, router refresh) left a rejection unhandled.
    expect(uncaught).toEqual([]);
  });
});
