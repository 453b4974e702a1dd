import { expect, test } from "@playwright/test";
import { chatThreadId, DEMO_USER, sendChat, signIn } from "./helpers";

// Streamed answers (POST /chat/respond/stream) in the browser: the answer's text grows while the
// model writes, then the final answer replaces it with its proposals; on the thread's page the
// turn shows the selector's domain and the answer's claims with their support.

test("an answer streams in, then its proposal appears; the turn shows its route and claims", async ({ page }) => {
  await signIn(page, DEMO_USER.email, DEMO_USER.password);
  await page.goto("/chat");
  const message =
    "What is the maintenance window for the staging cluster this quarter? We decided to rotate the staging database credentials every month.";
  await sendChat(page, message);

  // The streaming bubble shows part of the answer, then more of it, before the answer is final.
  const streaming = page.getByTestId("streaming-reply");
  await expect(streaming).toContainText("I don't have");
  const first = (await streaming.textContent()) ?? "";
  await expect.poll(async () => ((await streaming.textContent()) ?? "").length).toBeGreaterThan(first.length);

  const reply = page.getByTestId("assistant-reply").last();
  await expect(reply).toContainText("Rotate the staging database credentials every month");
  await expect(streaming).toHaveCount(0);
  const final = (await reply.textContent()) ?? "";
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
