import { expect, test } from "@playwright/test";
import { chatThreadId, DEMO_USER, sendChatAndWait, signIn } from "./helpers";

// The trace inspector: two turns sent in one chat thread show, on the thread's page, a timeline
// each with the breakpoint decision. An acknowledgement is SKIP (no retrieval); a plain
// statement without MUST signals is SHOULD.

test("a thread's trace timeline shows each turn's breakpoint decision", async ({ page }) => {
  await signIn(page, DEMO_USER.email, DEMO_USER.password);
  await page.goto("/chat");
  await sendChatAndWait(page, "ok thanks");
  await sendChatAndWait(page, "We decided to pin Node 20.");
  const threadId = await chatThreadId(page);

  await page.goto("/threads");
  const item = page.getByTestId("thread-list").locator(`li[data-thread-id="${threadId}"]`);
  await item.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/threads/${threadId}$`));

  const turns = page.getByTestId("turn");
  await expect(turns).toHaveCount(2);
  await expect(page.getByTestId("breakpoint-decision")).toHaveText(["SKIP", "SHOULD"]);
  // Each delivered answer passed the output gate (seed 002): its verdict is in the turn's header.
  // The first answer is its own baseline; the second is compared with it and is much longer, so
  // drift warns (it only warns in the pipeline: the answer was delivered).
  await expect(page.getByTestId("gate-decision")).toHaveText(["gate ALLOW", "gate WARN"]);
  const gateEvent = page.getByRole("article", { name: "Turn 2" }).locator('li[data-phase="gate"]');
  await expect(gateEvent).toContainText("Output gate WARN on attempt 1: Output length expanded by");

  const skipTurn = page.getByRole("article", { name: "Turn 1" });
  await expect(skipTurn.getByRole("list", { name: "Trace of turn 1" })).toBeVisible();
  const retrieval = skipTurn.locator('li[data-phase="retrieval"]');
  await expect(retrieval.getByTestId("trace-status")).toHaveText("skipped");

  const breakpoint = skipTurn.locator('li[data-phase="breakpoint"]');
  await expect(breakpoint).toContainText("Breakpoint decision: SKIP");
  const json = breakpoint.locator("pre");
  await expect(json).toBeHidden();
  await breakpoint.getByText("Metadata").click();
  await expect(json).toBeVisible();
  await expect(json).toContainText('"kind": "breakpoint_engine"');
});
