import { expect, test } from "@playwright/test";
import { DEMO_USER, openQueue, sendChat, signIn } from "./helpers";

// The first loop in a real browser: a chat turn proposes knowledge, a person approves it and
// finds the new CFB; another proposal is rejected and leaves the queue. The person is the demo
// user, who owns the demo threads and so reviews their proposals.

test.beforeEach(async ({ page }) => {
  await signIn(page, DEMO_USER.email, DEMO_USER.password);
});

test("a stated decision becomes a proposal that a person approves into a CFB", async ({ page }) => {
  await page.goto("/chat");
  await sendChat(page, "We decided to run the nightly export at 2am UTC.");

  const reply = page.getByTestId("assistant-reply").last();
  await expect(reply).toContainText(
    'I proposed saving this as new knowledge for review: "Run the nightly export at 2am UTC"',
  );

  const chat = page.getByRole("region", { name: "Chat" });
  const preview = chat.getByRole("article").filter({ hasText: "Run the nightly export at 2am UTC" });
  await expect(preview).toContainText("new knowledge");
  await expect(preview).toContainText("confidence 0.80");
  // The same proposal is waiting in the review queue, with resolve's verdict: nothing in the
  // knowledge base covers it, so a new CFB.
  await openQueue(page);
  const queue = page.getByTestId("proposal-queue");
  const queued = queue.getByRole("article").filter({ hasText: "Run the nightly export at 2am UTC" });
  await expect(queued).toBeVisible();
  await expect(queued.getByTestId("resolve-decision")).toHaveText("resolve: new CFB");
  // The queue's resolve filter: gone under "update", back under "create".
  const filters = page.getByTestId("queue-filters");
  await filters.getByLabel("Resolve").selectOption("update");
  await expect(queued).toHaveCount(0);
  await filters.getByLabel("Resolve").selectOption("create");
  await expect(queued).toBeVisible();
  // The filter is in the URL: a reload (or a shared link) shows the same view.
  await expect(page).toHaveURL(/[?&]decision=create/);
  await page.reload();
  await expect(page.getByTestId("queue-filters").getByLabel("Resolve")).toHaveValue("create");

  await queued.getByRole("button", { name: "Approve" }).click();
  // The card leaves the queue; what became of it is said above the queue, with a link to the CFB.
  const outcome = page.getByTestId("decided-here").getByRole("listitem").first();
  await expect(outcome).toContainText(/^Approved Run the nightly export at 2am UTC as CFB-\d{4}$/);
  const cfbLink = outcome.getByRole("link", { name: /^CFB-\d{4}$/ });
  const cfbId = (await cfbLink.textContent()) ?? "";
  await expect(queue.getByRole("article").filter({ hasText: "Run the nightly export at 2am UTC" })).toHaveCount(0);

  await cfbLink.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Run the nightly export at 2am UTC");
  await expect(page.getByText("approved by a person")).toBeVisible();
  await expect(page.getByText(/v1 create/)).toBeVisible();

  await page.getByRole("link", { name: "Knowledge" }).click();
  await page.getByLabel("Filter CFBs").fill("nightly export");
  const list = page.getByTestId("cfb-list");
  await expect(list.getByRole("link", { name: cfbId })).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(1);
});

test("a rejected proposal leaves the queue and no CFB is written", async ({ page }) => {
  await page.goto("/review");
  const queue = page.getByTestId("proposal-queue");
  const title = "Jam editors review pending proposals every Monday morning";
  const card = queue.getByRole("article").filter({ hasText: title });
  await expect(card).toBeVisible();
  const pendingTab = page.getByRole("button", { name: /^pending/ });
  const before = Number((await pendingTab.textContent())?.match(/\((\d+)\)/)?.[1]);

  // Reviewed from the keyboard: focus the card, R asks for a reason, Enter rejects.
  await card.focus();
  await page.keyboard.press("r");
  await expect(card.getByLabel(/Reason for rejecting/)).toBeFocused();
  await page.keyboard.type("covered by the weekly review");
  await page.keyboard.press("Enter");
  await expect(queue.getByRole("article").filter({ hasText: title })).toHaveCount(0);
  await expect(pendingTab).toHaveText(`pending (${before - 1})`);

  await page.getByRole("button", { name: /^rejected/ }).click();
  const rejected = queue.getByRole("article").filter({ hasText: title });
  await expect(rejected).toContainText("Rejected");
  await expect(rejected.getByRole("button", { name: "Approve" })).toHaveCount(0);

  await page.goto("/cfbs");
  await page.getByLabel("Filter CFBs").fill("Monday morning");
  await expect(page.getByText("No CFBs match.")).toBeVisible();
});

test("a question no CFB covers is answered with an honest unknown", async ({ page }) => {
  await page.goto("/chat");
  await sendChat(page, "What is our on-call rotation for weekends?");
  await expect(page.getByTestId("assistant-reply").last()).toContainText(
    'I don\'t have knowledge that answers "What is our on-call rotation for weekends?"',
  );
});

test("sending again after a lost answer replays the turn instead of storing it twice", async ({ page }) => {
  await page.goto("/chat");
  let lost = false;
  await page.route("**/chat/respond/stream", async (route) => {
    if (lost) return route.continue();
    lost = true;
    await route.fetch(); // the server stores the turn ...
    await route.abort("connectionreset"); // ... but the answer never reaches the browser
  });
  const title = "We archive closed incidents after 90 days";
  await sendChat(page, "Remember that we archive closed incidents after 90 days.");
  await expect(page.getByRole("region", { name: "Chat" }).getByRole("alert")).toBeVisible();

  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("assistant-reply").last()).toContainText(title);
  await openQueue(page);
  const queue = page.getByTestId("proposal-queue");
  await expect(queue.getByRole("article").filter({ hasText: title })).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId("proposal-queue").getByRole("article").filter({ hasText: title })).toHaveCount(1);
});

test("restating an approved CFB proposes an update; approving it shows what changed on the CFB", async ({ page }) => {
  await page.goto("/chat");
  const chat = page.getByRole("region", { name: "Chat" });
  await sendChat(page, "We decided to archive the audit logs every Friday.");
  const first = chat.getByRole("article").filter({ hasText: "Archive the audit logs every Friday" }).last();
  await first.getByRole("button", { name: "Approve", exact: true }).click();
  const outcome = first.getByRole("status");
  await expect(outcome).toContainText(/Approved as CFB-\d{4}/);
  const cfbId = (await outcome.getByRole("link").textContent()) ?? "";

  // The same knowledge again: resolve matches it to the CFB just written.
  await sendChat(page, "We decided to archive the audit logs every Friday evening.");
  const again = chat.getByRole("article").filter({ hasText: "every Friday evening" }).last();
  const update = again.getByRole("button", { name: `Approve update of ${cfbId}` });
  await expect(update).toBeVisible();
  await update.click();
  await expect(again.getByRole("status")).toContainText(`Approved as ${cfbId}`);

  await page.goto(`/cfbs/${cfbId}`);
  const history = page.getByTestId("cfb-history");
  await expect(history).toContainText("v2 update");
  const changes = history.getByRole("table", { name: "Changes in v2" });
  await expect(changes).toContainText("summary");
  await expect(changes.locator("ins").first()).toBeVisible();
});
