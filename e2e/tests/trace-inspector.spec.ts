import { expect, test } from "@playwright/test";
import { chatThreadId, DEMO_USER, sendChatAndWait, signIn } from "./helpers";

// The trace inspector: two turns sent in one chat thread show, on the thread's page, a timeline
// each with the breakpoint decision. An acknowledgement is SKIP (no retrieval); a plain
// statement without MUST signals is SHOULD.

for (const width of [1280, 390]) {
  test(`a thread's trace timeline shows each turn's breakpoint decision (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
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
    // The acknowledgement's answer is no baseline (issue 23): the second answer is compared with
    // no earlier answer, so nothing drifts.
    await expect(page.getByTestId("gate-decision")).toHaveText(["gate ALLOW", "gate ALLOW"]);
    const second = page.getByRole("article", { name: "Turn 2" });
    await expect(second.locator('li[data-phase="gate"]')).toContainText("Output gate ALLOW on attempt 1");
    // Each turn shows its message and answer, its context window and its steps on one time axis.
    await expect(second.getByTestId("turn-message")).toContainText("We decided to pin Node 20.");
    await expect(second.getByTestId("turn-answer")).not.toBeEmpty();
    await expect(second.getByTestId("context-window")).toContainText("Context window:");
    await expect(second.getByTestId("turn-total")).toHaveText(/\d+(\.\d+)? m?s in all|<1 ms in all/);
    const steps = second.locator("li[data-phase]");
    await expect(second.getByTestId("step-duration")).toHaveCount(await steps.count());
    await expect(second.locator("svg.waterfall-bar rect")).toHaveCount(await steps.count());
    // The page fits the screen (the waterfall scales, nothing scrolls sideways).
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expect(second.locator('li[data-phase="attempt"]')).toContainText("Model attempt");
    // The filter shows the SKIP turn alone.
    await page.getByRole("group", { name: "Show turns" }).getByRole("button", { name: /^SKIP/ }).click();
    await expect(turns).toHaveCount(1);
    await expect(page.getByTestId("breakpoint-decision")).toHaveText(["SKIP"]);
    await page
      .getByRole("group", { name: "Show turns" })
      .getByRole("button", { name: /^all turns/ })
      .click();
    await expect(turns).toHaveCount(2);

    // An earlier turn's trace is folded (the latest is open); its summary unfolds it.
    const skipTurn = page.getByRole("article", { name: "Turn 1" });
    await expect(skipTurn.getByRole("list", { name: "Trace of turn 1" })).toBeHidden();
    await skipTurn.getByTestId("trace-steps").locator("> summary").click();
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
}

test("the context window says why each CFB was injected: the words it holds, how alike its meaning is", async ({
  page,
}) => {
  await signIn(page, DEMO_USER.email, DEMO_USER.password);
  await page.goto("/chat");
  await sendChatAndWait(page, "How does the Umbra promotion loop work?");
  const threadId = await chatThreadId(page);
  await page.goto(`/threads/${threadId}`);
  const entry = page.getByTestId("context-window").locator("li", { hasText: "Umbra promotion loop" });
  await expect(entry).toContainText("words: umbra, promotion, loop");
  // The sentence model runs in the e2e server too: the similarity of meaning is shown beside the words.
  await expect(entry).toContainText(/meaning \d+% alike/);
});
