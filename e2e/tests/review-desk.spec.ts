import { expect, type Page, test } from "@playwright/test";
import { DEMO_USER, JAM, origin, signIn, unique } from "./helpers";

// The review desk (issue 23) in a real browser: the queue on its own page that editors land on,
// a keyboard-only pass over ten proposals, bulk decisions with a reason, assignment, a request
// for changes that reaches the proposer in their thread, filters in the URL, the pending badge,
// and the same at a phone's width.

/** States a decision over the REST API as the signed-in account; its proposal and thread. */
async function propose(page: Page, baseURL: string | undefined, message: string) {
  const answer = await page.request.post("/chat/respond", {
    headers: { Origin: origin(baseURL), "Content-Type": "application/json" },
    data: { request_id: `desk-${unique()}`, message },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  const body = await answer.json();
  const preview = body.ui_hints.proposal_previews[0];
  expect(preview, JSON.stringify(body.ui_hints)).toBeTruthy();
  return {
    proposalId: preview.proposal_id as string,
    threadId: body.thread_id as string,
    title: preview.title as string,
  };
}

/** A proposal's status as the API reads it. */
async function statusOf(page: Page, proposalId: string): Promise<string> {
  const answer = await page.request.get(
    `/api/trpc/proposals.get?input=${encodeURIComponent(JSON.stringify({ proposal_id: proposalId }))}`,
  );
  return (await answer.json()).result.data.status;
}

/** Opens the queue's filters (folded on a phone). */
async function openFilters(page: Page) {
  const details = page.getByTestId("queue-filters");
  if ((await details.getAttribute("open")) === null) await details.locator("summary").click();
}

const card = (page: Page, proposalId: string) => page.getByTestId(`proposal-${proposalId}`);
const focusedCardId = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute("data-testid")?.replace(/^proposal-/, "") ?? null);

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });

    test("a Jam editor lands on the queue and reviews ten proposals with the keyboard only", async ({
      page,
      baseURL,
    }) => {
      await signIn(page, JAM.email, JAM.password);
      await expect(page).toHaveURL(/\/review$/);
      await expect(page).toHaveTitle(/^(\(\d+\) )?Review queue · Solserver$/);
      await expect(page.getByRole("heading", { level: 1, name: "Review queue" })).toBeVisible();
      const tag = unique();
      const made = [];
      for (let i = 0; i < 10; i++)
        made.push(await propose(page, baseURL, `We decided that rack ${tag}${i} is patched on day ${i + 1}.`));
      await page.reload();
      // Newest first: the ten just made lead the queue.
      const ids = made.map((m) => m.proposalId).reverse();
      await expect(card(page, ids[0] as string)).toBeVisible();
      // The first card is on the first screen, even on a phone.
      const box = await card(page, ids[0] as string).boundingBox();
      expect(box?.y ?? 9999).toBeLessThan(width === 390 ? 844 : 900);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      // ? lists the keys; Esc closes the list.
      await page.keyboard.press("Shift+?");
      await expect(page.getByTestId("keyboard-help")).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("keyboard-help")).toHaveCount(0);

      // J focuses the first card; J/K move; A approves, R asks for a reason and Enter rejects, and
      // focus moves on by itself.
      await page.keyboard.press("j");
      expect(await focusedCardId(page)).toBe(ids[0]);
      await page.keyboard.press("j");
      expect(await focusedCardId(page)).toBe(ids[1]);
      await page.keyboard.press("k");
      expect(await focusedCardId(page)).toBe(ids[0]);
      for (const [i, id] of ids.entries()) {
        await expect.poll(() => focusedCardId(page)).toBe(id);
        if (i % 2 === 0) await page.keyboard.press("a");
        else {
          await page.keyboard.press("r");
          await expect(card(page, id).getByLabel(/Reason for rejecting/)).toBeFocused();
          await page.keyboard.press("Enter");
        }
        // Decided, the card leaves the queue and the next one has the focus.
        await expect(card(page, id)).toHaveCount(0);
      }
      for (const [i, id] of ids.entries()) expect(await statusOf(page, id)).toBe(i % 2 === 0 ? "approved" : "rejected");
    });

    test("a bulk reject with a reason reaches each proposer in their thread", async ({ page, baseURL, browser }) => {
      // The demo user proposes; the Jam editor decides.
      const userContext = await browser.newContext({ viewport: { width, height: 844 } });
      const user = await userContext.newPage();
      await signIn(user, DEMO_USER.email, DEMO_USER.password);
      const tag = unique();
      const a = await propose(user, baseURL, `We decided the ${tag} kiln fires on Mondays.`);
      const b = await propose(user, baseURL, `We decided the ${tag} glaze cures for two days.`);

      await signIn(page, JAM.email, JAM.password);
      await page.reload();
      for (const p of [a, b]) await card(page, p.proposalId).getByTestId("select-proposal").check();
      const bar = page.getByTestId("bulk-bar");
      await expect(bar).toContainText("2 selected");
      await bar.getByRole("button", { name: "Reject 2…" }).click();
      const rejectBoth = async () => {
        const dialog = page.getByRole("dialog", { name: "Reject 2 proposals?" });
        await dialog.getByLabel(/^Reason/).fill(`Out of scope for ${tag}.`);
        await dialog.getByRole("button", { name: "Reject all" }).click();
        await expect(page.getByTestId("bulk-outcome")).toContainText("2 rejected.");
        for (const p of [a, b]) expect(await statusOf(page, p.proposalId)).toBe("rejected");
      };
      await rejectBoth();
      // One line, with Undo: both are pending again, and no "decided by" notice is raised.
      await page.getByTestId("bulk-outcome").getByRole("button", { name: "Undo" }).click();
      await expect(page.getByTestId("bulk-outcome")).toContainText("2 of 2 back in the queue.");
      for (const p of [a, b]) expect(await statusOf(page, p.proposalId)).toBe("pending");
      await expect(page.locator('[data-testid^="departed-"]')).toHaveCount(0);
      await page.getByTestId("bulk-outcome").getByRole("button", { name: "Dismiss" }).click();
      for (const p of [a, b]) await card(page, p.proposalId).getByTestId("select-proposal").check();
      await bar.getByRole("button", { name: "Reject 2…" }).click();
      await rejectBoth();

      // The proposer sees the reason in their thread.
      await user.goto(`/threads/${a.threadId}`);
      const notes = user.getByTestId("thread-notes");
      await expect(notes).toContainText(`Out of scope for ${tag}.`);
      await expect(notes).toContainText("rejected it");
      await userContext.close();
    });

    test("a request for changes on the proposal page reaches the proposer, who answers it", async ({
      page,
      baseURL,
      browser,
    }) => {
      const userContext = await browser.newContext({ viewport: { width, height: 844 } });
      const user = await userContext.newPage();
      await signIn(user, DEMO_USER.email, DEMO_USER.password);
      const tag = unique();
      const p = await propose(user, baseURL, `We decided the ${tag} printer is serviced monthly.`);

      await signIn(page, JAM.email, JAM.password);
      await page.goto(`/proposals/${p.proposalId}`);
      await expect(page).toHaveTitle(new RegExp(`^(\\(\\d+\\) )?Proposal ${p.proposalId} · Solserver$`));
      const discussion = page.getByTestId("discussion");
      await discussion.getByLabel("Add a note").fill("Which day of the month?");
      await discussion.getByRole("button", { name: "Request changes" }).click();
      await expect(discussion.getByTestId("comment")).toContainText("requested changes");

      await user.goto(`/threads/${p.threadId}`);
      await expect(user.getByTestId("thread-notes")).toContainText("Which day of the month?");
      await user
        .getByTestId("thread-notes")
        .getByRole("link", { name: `Proposal ${p.proposalId}` })
        .click();
      const answer = user.getByTestId("discussion");
      await answer.getByLabel("Add a note").fill("The first Monday.");
      // Ctrl+Enter sends a note, as in the chat.
      await answer.getByLabel("Add a note").press("Control+Enter");
      await expect(answer.getByTestId("comment")).toHaveCount(2);
      // A user answers; only reviewers request changes.
      await expect(answer.getByRole("button", { name: "Request changes" })).toHaveCount(0);
      await userContext.close();

      await page.goto("/review");
      const queued = card(page, p.proposalId);
      await expect(queued.getByTestId("comment-count")).toHaveText("2 comments");
      await expect(queued).not.toContainText("changes requested");
    });

    test("assignment: a Jam editor assigns proposals and finds them under 'Assigned to me', filters in the URL", async ({
      page,
      baseURL,
    }) => {
      await signIn(page, JAM.email, JAM.password);
      const tag = unique();
      const p = await propose(page, baseURL, `We decided the ${tag} badge reader is rebooted nightly.`);
      await page.reload();
      await card(page, p.proposalId).getByTestId("select-proposal").check();
      await page.getByTestId("bulk-bar").getByLabel("Assign to").selectOption({ label: "Demo Jam editor" });
      await expect(card(page, p.proposalId).getByTestId("card-meta")).toContainText("assigned to Demo Jam editor");
      await openFilters(page);
      const mine = page.getByTestId("queue-filters").getByLabel("Assigned to me");
      await mine.click();
      await expect(page).toHaveURL(/[?&]mine=1/);
      await expect(mine).toBeChecked();
      await expect(card(page, p.proposalId)).toBeVisible();
      // The counts follow the filter, and a reload keeps it.
      await page.reload();
      await expect(page.getByTestId("queue-filters").getByLabel("Assigned to me")).toBeChecked();
      await expect(card(page, p.proposalId)).toBeVisible();
      const pending = page.getByRole("button", { name: /^pending/ });
      const shown = await page.getByTestId("proposal-queue").getByRole("article").count();
      await expect(pending).toHaveText(`pending (${shown})`);
      // A saved view brings the same filters back in one click.
      await openFilters(page);
      const views = page.getByTestId("saved-views");
      await views.getByLabel("Save this view as").fill("Mine");
      await views.getByRole("button", { name: "Save" }).click();
      await page.goto("/review");
      await expect(page.getByTestId("queue-filters").getByLabel("Assigned to me")).not.toBeChecked();
      await openFilters(page);
      await page.getByTestId("saved-views").getByRole("link", { name: "Mine" }).click();
      await expect(page).toHaveURL(/[?&]mine=1/);
      await expect(page.getByTestId("queue-filters").getByLabel("Assigned to me")).toBeChecked();
    });

    test("dark theme: the system preference applies, and the toggle's choice survives a reload", async ({
      browser,
    }) => {
      const context = await browser.newContext({ colorScheme: "dark", viewport: { width, height: 844 } });
      const page = await context.newPage();
      await signIn(page, JAM.email, JAM.password);
      const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      // Dark from the system preference, without any choice made.
      expect(await background()).toBe("rgb(20, 21, 23)");
      const toggle = page.getByTestId("theme-toggle");
      await toggle.click(); // system -> light
      await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
      expect(await background()).toBe("rgb(247, 247, 245)");
      await page.reload();
      await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
      await page.getByTestId("theme-toggle").click(); // light -> dark
      await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
      expect(await background()).toBe("rgb(20, 21, 23)");
      await context.close();
    });
  });
}

test("the frame: skip link, pending badge, page titles, a 404 with a way back", async ({ page }) => {
  await signIn(page, JAM.email, JAM.password);
  await page.goto("/cfbs");
  await expect(page).toHaveTitle(/^(\(\d+\) )?Knowledge · Solserver$/);
  // The tab counts what waits for review.
  await expect(page).toHaveTitle(/^\(\d+\) /);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
  await expect(page.getByTestId("pending-badge")).toContainText(/\d+/);
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to your start page" }).click();
  await expect(page).toHaveURL(/\/review$/);
});

test("the chat keeps its conversation over a reload and sends with Ctrl+Enter", async ({ page }) => {
  await signIn(page, DEMO_USER.email, DEMO_USER.password);
  await expect(page).toHaveURL(/\/chat$/);
  const tag = unique();
  const box = page.getByLabel(/^Message/);
  await box.fill(`We decided the ${tag} fridge is cleaned on Fridays.`);
  await box.press("Control+Enter");
  await expect(page.getByTestId("assistant-reply")).toHaveCount(1);
  await page.reload();
  const history = page.getByTestId("chat-history");
  await expect(history).toContainText(`${tag} fridge is cleaned on Fridays`);
  // The next message continues the same thread.
  await box.fill("What about the microwave?");
  await box.press("Control+Enter");
  await expect(page.getByTestId("assistant-reply")).toHaveCount(1);
  await page.getByRole("link", { name: "Threads" }).click();
  await expect(page.getByTestId("thread-list").getByRole("listitem").filter({ hasText: tag })).toHaveCount(1);
});
