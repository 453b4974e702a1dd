import path from "node:path";
import { expect, test } from "@playwright/test";
import { chatThreadId, JAM, sendChat, signIn } from "../tests/helpers";

const OUT = path.resolve(import.meta.dirname, "../../docs/screenshots");
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

test("review queue, proposal page and CFB page", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, JAM.email, JAM.password);
  // Knowledge, then a restatement of it: an update proposal with something to compare.
  await page.goto("/chat");
  await sendChat(page, "We decided to rotate the on-call pager every Tuesday.");
  const chat = page.getByRole("region", { name: "Chat" });
  const first = chat.getByRole("article").filter({ hasText: "Rotate the on-call pager every Tuesday" }).last();
  await first.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(first.getByRole("status")).toContainText("Approved as");
  const cfbId = (await first.getByRole("status").getByRole("link").textContent()) ?? "";
  await sendChat(page, "We decided to rotate the on-call pager every Tuesday at noon, with a handover note.");
  await expect(page.getByRole("button", { name: "Sending…" })).toHaveCount(0);
  await page.goto("/review");
  const queued = page.getByTestId("proposal-queue").getByRole("article", { name: /handover note/ });
  await expect(queued).toBeVisible();
  await page.keyboard.press("j");
  await page.screenshot({ path: `${OUT}/review-queue.png` });
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(queued).toBeVisible();
  await page.screenshot({ path: `${OUT}/review-queue-phone.png` });
  await page.setViewportSize(DESKTOP);

  await queued.getByRole("heading").getByRole("link").click();
  await expect(page.getByRole("region", { name: "What would change" })).toBeVisible();
  await page.screenshot({ path: `${OUT}/proposal-page.png`, fullPage: true });

  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${OUT}/proposal-page-phone.png`, fullPage: true });

  // Approved, the CFB's page shows the revision's diff and the proposals that touched it.
  await page.setViewportSize(DESKTOP);
  await page.keyboard.press("a");
  await expect(page.getByRole("status").filter({ hasText: "Approved" })).toBeVisible();
  await page.goto(`/cfbs/${cfbId}`);
  await expect(page.getByTestId("cfb-proposals")).toBeVisible();
  await expect(page.getByTestId("cfb-history")).toContainText("v2 update");
  await page.screenshot({ path: `${OUT}/cfb-page.png`, fullPage: true });
});

test("checkpoints inbox", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, JAM.email, JAM.password);
  // Pending proposals, so the beat's summary has something to list.
  await page.goto("/chat");
  await sendChat(page, "We decided to archive the staging logs every Friday.");
  await expect(page.getByRole("button", { name: "Sending…" })).toHaveCount(0);
  await page.goto("/review");
  await expect(page.getByTestId("proposal-queue").getByRole("article", { name: /staging logs/ })).toBeVisible();
  await page.getByRole("link", { name: "Checkpoints" }).click();
  await page.getByRole("button", { name: "Start the Umbra beat" }).click();
  const card = page.getByRole("region", { name: "Checkpoints inbox" }).getByRole("article");
  await expect(card.getByRole("heading", { name: /Review \d+ proposals before promoting\?/ })).toBeVisible();
  await card.getByRole("radio", { name: "Skip promotion" }).check();
  await card.getByLabel(/^Feedback/).fill("Not this week: the audit is on");
  await page.screenshot({ path: `${OUT}/checkpoints-inbox.png`, fullPage: true });

  // End the beat: none is left under way.
  await card.getByRole("radio", { name: "Abort" }).check();
  await card.getByRole("button", { name: "Confirm Abort" }).click();
  await expect(card).toHaveCount(0);
});

test("procedure mode: a diagnosis and its final report", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, JAM.email, JAM.password);
  await page.goto("/chat");
  await page.getByLabel("Guided diagnosis").selectOption("water_pump");
  const replies = page.getByTestId("assistant-reply");
  const turns = [
    "The water pump won't run and there is no water at the faucet",
    "where is the fuse panel?",
    "the fuse is good",
  ];
  for (const [i, message] of turns.entries()) {
    await sendChat(page, message);
    await expect(replies).toHaveCount(i + 1);
  }
  await page.getByRole("region", { name: "Chat" }).screenshot({ path: `${OUT}/procedure-chat.png` });
  for (const [i, message] of ["about 12 volts", "no, it does not run", "yes"].entries()) {
    await sendChat(page, message);
    await expect(replies).toHaveCount(turns.length + i + 1);
  }
  await expect(page.getByTestId("procedure-report")).toBeVisible();
  await page.goto(`/threads/${await chatThreadId(page)}`);
  await expect(page.getByTestId("procedure-report")).toBeVisible();
  await page.getByTestId("procedure-panel").screenshot({ path: `${OUT}/procedure-report.png` });
});

test("a thread's turns as a waterfall, and the queue in the dark theme", async ({ browser }) => {
  const context = await browser.newContext({ viewport: DESKTOP, colorScheme: "dark" });
  const page = await context.newPage();
  await signIn(page, JAM.email, JAM.password);
  await page.screenshot({ path: `${OUT}/review-queue-dark.png` });
  await page.goto("/chat");
  await sendChat(page, "What is our release checklist?");
  await expect(page.getByRole("button", { name: "Sending…" })).toHaveCount(0);
  await sendChat(page, "We decided every release needs a passing breakpoint gate in CI.");
  await expect(page.getByRole("button", { name: "Sending…" })).toHaveCount(0);
  await page.goto(`/threads/${await chatThreadId(page)}`);
  const turn = page.getByTestId("turn").last();
  await expect(turn.locator("svg.waterfall-bar").first()).toBeVisible();
  await turn.screenshot({ path: `${OUT}/trace-waterfall.png` });
  await context.close();
});
