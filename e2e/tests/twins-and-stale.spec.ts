import { expect, type Page, test } from "@playwright/test";
import { JAM, openQueue, origin, sendChatAndWait, signIn, unique } from "./helpers";

// Twins and stale decisions in a real browser (issue 19): the same suggestion said twice is one
// card that stands for both, and approving it folds the other; a card decided elsewhere while it
// is on screen never just vanishes, and the proposal page says who decided it when. The queue
// refreshes itself every 5 s; where a step must happen before that refresh, the refresh is held.

test.beforeEach(async ({ page }) => {
  await signIn(page, JAM.email, JAM.password);
});

const PROMOTE = "/api/trpc/promotion.promote";

/** Decides `proposalId` behind the page's back, as another editor's tab would. */
async function decideElsewhere(page: Page, baseURL: string | undefined, proposalId: string, action: string) {
  const answer = await page.request.post(PROMOTE, {
    headers: { Origin: origin(baseURL), "Content-Type": "application/json" },
    data: { proposal_id: proposalId, action },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

const idOf = async (card: ReturnType<Page["getByRole"]>) =>
  ((await card.getAttribute("data-testid")) ?? "").replace(/^proposal-/, "");

test("the same suggestion twice is one card; approving it folds the twin", async ({ page }) => {
  const days = 40 + Math.floor(Math.random() * 50);
  const message = `We decided to archive build logs after ${days} days (${unique()}).`;
  await page.goto("/chat");
  await sendChatAndWait(page, message);
  await sendChatAndWait(page, message);

  await openQueue(page);
  const queue = page.getByTestId("proposal-queue");
  const cards = queue.getByRole("article").filter({ hasText: `after ${days} days` });
  await expect(cards).toHaveCount(1);
  await expect(cards.getByTestId("twin-count")).toHaveText("and 1 more like it: one decision covers them all");
  const leadId = await idOf(cards);

  await cards.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(cards).toHaveCount(0);
  // Folded, not approved a second time: under "folded twins", linked to the one decided.
  await page.getByRole("button", { name: /^folded twins/ }).click();
  const folded = queue.getByRole("article").filter({ hasText: `after ${days} days` });
  await expect(folded).toHaveCount(1);
  await expect(folded.getByRole("status")).toContainText(`Folded into its twin ${leadId} by ${JAM.email}`);
  await expect(folded.getByRole("button")).toHaveCount(0);
  // One CFB came of the two proposals.
  await page.goto("/cfbs");
  await page.getByLabel("Filter CFBs").fill(`archive build logs after ${days} days`);
  await expect(page.getByTestId("cfb-list").getByRole("listitem")).toHaveCount(1);
});

test("a stale card explains itself, whether it is clicked or refreshed away", async ({ page, baseURL }) => {
  const tag = unique();
  await page.goto("/chat");
  await sendChatAndWait(page, `We decided to rotate the staging secrets every 30 days (${tag}).`);
  await sendChatAndWait(page, `We decided to rebuild the search index every Sunday (${tag}).`);
  await openQueue(page);
  const queue = page.getByTestId("proposal-queue");
  // By their titles (the thread link on both cards names the thread's first message).
  const secrets = queue.getByRole("article", { name: /staging secrets/ });
  const search = queue.getByRole("article", { name: /search index/ });
  await expect(secrets).toBeVisible();
  await expect(search).toBeVisible();
  const secretsId = await idOf(secrets);
  const searchId = await idOf(search);
  const notes = page.getByRole("region", { name: "Changed while you were looking" });

  // Rejected elsewhere; this page still shows the card (its refresh held until the click's
  // request leaves) and its Approve button is clicked.
  let hold = true;
  await page.route(
    (url) => url.pathname.includes("proposals.list"),
    (route) => (hold ? route.abort() : route.continue()),
  );
  await page.route(
    (url) => url.pathname.includes("promotion.promote"),
    (route) => {
      hold = false;
      return route.continue();
    },
  );
  await decideElsewhere(page, baseURL, secretsId, "reject");
  await secrets.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(secrets).toHaveCount(0);
  const clicked = notes.getByTestId(`departed-${secretsId}`);
  await expect(clicked).toContainText(
    new RegExp(
      `Proposal ${secretsId} was already rejected by ${JAM.email.replace(".", "\\.")} at .* UTC: nothing left to decide`,
    ),
  );

  // Approved elsewhere; the queue's own refresh takes the card away, and says why.
  await decideElsewhere(page, baseURL, searchId, "approve_create");
  await expect(search).toHaveCount(0);
  const refreshed = notes.getByTestId(`departed-${searchId}`);
  await expect(refreshed).toContainText(new RegExp(`Proposal ${searchId} was already approved by .* as CFB-\\d{4}`));
  await refreshed.getByRole("button", { name: "Dismiss" }).click();
  await expect(refreshed).toHaveCount(0);
});

test("the proposal page notices a decision made elsewhere, and names who made it", async ({ page, baseURL }) => {
  const tag = unique();
  await page.goto("/chat");
  await sendChatAndWait(page, `We decided to page the database team for replica lag (${tag}).`);
  await openQueue(page);
  const card = page.getByTestId("proposal-queue").getByRole("article").filter({ hasText: tag }).first();
  const proposalId = await idOf(card);
  await page.goto(`/proposals/${proposalId}`);
  await expect(page.getByRole("button", { name: "Reject" })).toBeVisible();

  await decideElsewhere(page, baseURL, proposalId, "reject");
  await expect(page.getByRole("alert").filter({ hasText: "While you were reviewing" })).toContainText(
    `While you were reviewing, proposal ${proposalId} was already rejected by ${JAM.email}`,
  );
  await expect(page.getByTestId("decided")).toContainText(`Rejected by ${JAM.email} (a Jam editor)`);
  await expect(page.getByRole("button", { name: "Reject" })).toHaveCount(0);
});
