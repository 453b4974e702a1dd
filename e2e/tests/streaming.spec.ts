import { expect, test } from "@playwright/test";
import { chatThreadId, DEMO_USER, sendChat, signIn } from "./helpers";

// Streamed answers (POST /chat/respond/stream) in the browser: the answer's text grows while the
// model writes, then the final answer replaces it with its proposals; on the thread's page the
// turn shows the selector's domain and the answer's claims with their support.

test("an answer streams in, then its proposal appears; the turn shows its route and claims", async ({ page }) => {
  await signIn(page, DEMO_USER.email, DEMO_USER.password);
  await page.goto("/chat");
  // Every text the streaming bubble shows, recorded by the page itself as it changes: on a busy
  // machine the stream can end between two reads of the test's, so the test never samples it.
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { streamed: seen });
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="streaming-reply"]')?.textContent ?? "";
      if (text !== "" && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const message =
    "What is the maintenance window for the staging cluster this quarter? We decided to rotate the staging database credentials every month.";
  await sendChat(page, message);

  const reply = page.getByTestId("assistant-reply").last();
  await expect(reply).toContainText("Rotate the staging database credentials every month");
  await expect(page.getByTestId("streaming-reply")).toHaveCount(0);
  const final = (await reply.textContent()) ?? "";
  // The streaming bubble showed part of the answer, then more of it, before the answer was final.
  // (the bubble shows "…" until the first words arrive)
  const streamed = (await page.evaluate(() => (window as unknown as { streamed: string[] }).streamed)).filter((t) =>
    t.includes("I don't have"),
  );
  expect(streamed.length).toBeGreaterThanOrEqual(2);
  const first = streamed[0] ?? "";
  expect((streamed.at(-1) ?? "").length).toBeGreaterThan(first.length);
  expect(final.startsWith(first.trimEnd())).toBe(true);
  expect(final.length).toBeGreaterThan(first.length);
  await expect(page.getByRole("region", { name: "Chat" }).getByRole("article").last()).toContainText(
    "Rotate the staging database credentials every month",
  );

  const threadId = await chatThreadId(page);
  await page.goto(`/threads/${threadId}`);
  const turn = page.getByTestId("turn").first();
  await expect(turn.getByTestId("router-domain")).toHaveText("ops");
  const claims = turn.getByTestId("claims");
  await claims.locator("summary").click();
  await expect(claims.getByTestId("claim").first()).toContainText("unknown U1");
  await expect(turn.locator('li[data-phase="selector"]')).toContainText("Routed to ops");
});
