import { openControlPlane, createOfflineModel, type TModelProvider } from "@solserver/control-plane";
import { createTestDatabase } from "@solserver/db/testing";
import { it } from "vitest";
import { createInnerContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";

it("scratch", async () => {
  const tdb = await createTestDatabase("scratch");
  const offline = createOfflineModel();
  let waiting: (() => void)[] = [];
  const model: TModelProvider = {
    name: "gated",
    async generate(input) {
      await new Promise<void>((resolve) => { waiting.push(resolve); if (waiting.length === 2) { for (const w of waiting) w(); waiting = []; } });
      return offline.generate(input);
    },
  };
  const { controlPlane, db } = await openControlPlane({ databaseUrl: tdb.url, model });
  const caller = createCaller(createInnerContext({ controlPlane, actor: { kind: "local", editor: "user" } }));
  const rs = await Promise.allSettled([
    caller.chat.respond({ request_id: "dup", message: "We decided to use Postgres for the analytics store." }),
    caller.chat.respond({ request_id: "dup", message: "We decided to use Postgres for the analytics store." }),
  ]);
  console.log(JSON.stringify(rs.map((r) => r.status === "fulfilled" ? [r.value.response_id, r.value.replayed] : [String(r.reason), (r.reason as any).cause?.message, (r.reason as any).cause?.meta])));
  console.log(await db.packet.count(), JSON.stringify(await db.idSequence.findMany()));
  const rs2 = await Promise.allSettled([
    caller.chat.respond({ request_id: "dup2", message: "We decided to use Postgres." }),
    caller.chat.respond({ request_id: "dup2", message: "We decided to use MySQL." }),
  ]);
  console.log(JSON.stringify(rs2.map((r) => r.status === "fulfilled" ? [r.value.response_id, r.value.replayed] : [String(r.reason)])));
  console.log(await db.packet.count(), JSON.stringify(await db.idSequence.findMany()));
  console.log(JSON.stringify(await db.traceRun.findMany()));
  await db.$disconnect();
  tdb.cleanup();
});
