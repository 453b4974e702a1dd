import { openControlPlane } from "@solserver/control-plane";
import { createTestDatabase } from "@solserver/db/testing";
import { it } from "vitest";
import { createInnerContext } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";

it("scratch", async () => {
  const tdb = await createTestDatabase("scratch");
  const { controlPlane, db } = await openControlPlane({ databaseUrl: tdb.url });
  const caller = createCaller(createInnerContext({ controlPlane, actor: { kind: "local", editor: "user" } }));
  const show = async (p: Promise<unknown>) => {
    try { console.log("OK", JSON.stringify(await p, null, 1)); } catch (e: any) { console.log("ERR", e.constructor.name, e.code, JSON.stringify(e.message), e.cause?.constructor?.name, e.cause?.field); }
  };
  await show(caller.chat.respond({ request_id: "r1", message: "We decided to use Postgres for the analytics store." }));
  await show(caller.chat.respond({ request_id: "r2" } as any));
  await show(caller.chat.respond({ request_id: "r2", message: "  " }));
  await show(caller.chat.respond({ request_id: "r2", message: "hi", extra: 1 } as any));
  await show(caller.promotion.promote({ proposal_id: "UP-0001", action: "approve_all" } as any));
  await show(caller.proposals.get({ proposal_id: "x" }));
  await show(caller.proposals.get({ proposal_id: "UP-9999" }));
  await show(caller.promotion.promote({ proposal_id: "UP-0001", action: "approve_update" }));
  await show(caller.promotion.promote({ proposal_id: "UP-0001", response_id: "R-0002", action: "approve_create" }));
  await show(caller.promotion.promote({ proposal_id: "UP-0001", action: "approve_create", editorial_overrides: { tags_add: ["x"] } }));
  await show(caller.promotion.promote({ proposal_id: "UP-0001", action: "approve_create" }));
  await show(caller.cfbs.get({ cfb_id: "CFB-0001" }));
  await db.$disconnect();
  tdb.cleanup();
});
