import { expect, test } from "@playwright/test";
import { JAM, openQueue, sendChat, signIn } from "./helpers";

// Issue 19, point 1, in a real browser: approving an update writes the proposed content, never the
// change note. The proposal page shows the note ("Add decision: …") as the proposal's description
// and the content in its diff; what the diff shows is exactly what lands on the CFB.

test("approving an update shows and lands the proposed content, not the change note", async ({ page }) => {
  await signIn(page, JAM.email, JAM.password);
  await page.goto("/chat");

  // A decision becomes a CFB.
  await sendChat(page, "We decided that the staging database is refreshed every Sunday night.");
  const chat = page.getByRole("region", { name: "Chat" });
  const card = chat.getByRole("article").filter({ hasText: "staging database is refreshed" }).last();
  await card.getByRole("button", { name: "Approve", exact: true }).click();
  const outcome = card.getByRole("status");
  await expect(outcome).toContainText(/Approved as CFB-\d{4}/);
  const cfbId = (await outcome.getByRole("link").textContent()) ?? "";
  await outcome.getByRole("link").click();
  const before = (await page.locator("article h1 + p").textContent())?.trim() ?? "";
  expect(before).toMatch(/staging database is refreshed every Sunday night\.$/i);
  expect(before).not.toMatch(/^add\b/i);

  // Restated with one more detail: an update of that CFB, with a change note and content.
  await page.goto("/chat");
  await sendChat(
    page,
    "We decided that the staging database is refreshed every Sunday night from an anonymised snapshot.",
  );
  await openQueue(page);
  const queued = page
    .getByTestId("proposal-queue")
    .getByRole("article")
    .filter({ hasText: "anonymised snapshot" })
    .first();
  await expect(queued).toBeVisible();
  await queued.getByRole("heading").getByRole("link").click();
  await expect(page).toHaveURL(/\/proposals\/UP-\d+$/);
  const review = page.getByTestId("proposal-review");
  // The change note describes the change...
  await expect(review.getByText(/^Add decision: .*anonymised snapshot/)).toBeVisible();
  // ...and the diff shows the content: the summary gains the detail, no change-note wording.
  const preview = page.getByRole("region", { name: "What would change" });
  await expect(preview).toContainText(`rewrites ${cfbId} (version 1)`);
  const summary = preview.locator('tr[data-field="summary"]');
  await expect(summary).toHaveClass(/changed/);
  await expect(summary.locator("ins").filter({ hasText: "anonymised snapshot" })).toBeVisible();
  await expect(summary).not.toContainText("Add decision");

  await page.keyboard.press("a");
  await expect(page.getByRole("status").filter({ hasText: "Approved" })).toContainText(`Approved as ${cfbId}`);
  await page.getByRole("status").getByRole("link", { name: cfbId }).click();
  await expect(page.getByTestId("cfb-history")).toContainText("v2 update");
  // What landed is the sentence the diff showed: the old summary with the detail, as a fact.
  const after = (await page.locator("article h1 + p").textContent())?.trim() ?? "";
  expect(after).toBe(`${before.replace(/\.$/, "")} from an anonymised snapshot.`);
  await expect(page.getByRole("article")).not.toContainText("Add decision");
});
