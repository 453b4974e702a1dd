import { expect, type Page, test } from "@playwright/test";
import { JAM, openQueue, origin, sendChat, signIn } from "./helpers";

// The proposal page in a real browser, as a Jam editor: the proposal, resolve's verdict, the CFB
// it would change side by side with the result, where it came from; keyboard review; a conflict
// message when another editor changes the CFB while the page is open; edit-then-approve with a
// live preview of the edits.

test.beforeEach(async ({ page }) => {
  await signIn(page, JAM.email, JAM.password);
});

/** States a decision, approves it as a new CFB from the chat; the CFB's id. */
async function knowledge(page: Page, message: string, title: string): Promise<string> {
  await page.goto("/chat");
  await sendChat(page, message);
  const chat = page.getByRole("region", { name: "Chat" });
  const card = chat.getByRole("article").filter({ hasText: title }).last();
  await card.getByRole("button", { name: "Approve", exact: true }).click();
  const outcome = card.getByRole("status");
  await expect(outcome).toContainText(/Approved as CFB-\d{4}/);
  return (await outcome.getByRole("link").textContent()) ?? "";
}

/** Restates it so that resolve matches it to `cfbId`, and opens the proposal's page from the queue. */
async function openUpdateProposal(page: Page, message: string, hasText: string): Promise<void> {
  await sendChat(page, message);
  await openQueue(page);
  const queued = page.getByTestId("proposal-queue").getByRole("article").filter({ hasText }).first();
  await expect(queued).toBeVisible();
  await queued.getByRole("heading").getByRole("link").click();
  await expect(page).toHaveURL(/\/proposals\/UP-\d+$/);
  await expect(page.getByTestId("proposal-review")).toBeVisible();
}

test("a proposal's page shows the change side by side, and a CFB edited meanwhile is a conflict, not a lost update", async ({
  page,
  baseURL,
}) => {
  const cfbId = await knowledge(
    page,
    "We decided to rotate the pager every Tuesday.",
    "Rotate the pager every Tuesday",
  );
  await openUpdateProposal(page, "We decided to rotate the pager every Tuesday at noon.", "every Tuesday at noon");

  // Resolve's verdict with its component scores, open on this page.
  await expect(page.getByTestId("resolve-decision")).toContainText("resolve:");
  await expect(page.getByRole("columnheader", { name: "text", exact: true })).toBeVisible();
  // Where it came from.
  const source = page.getByRole("region", { name: "Where it came from" });
  await expect(source).toContainText("We decided to rotate the pager every Tuesday at noon.");
  // What would change: the target now (v1) beside the result, the summary highlighted.
  const preview = page.getByRole("region", { name: "What would change" });
  await expect(preview).toContainText(`rewrites ${cfbId} (version 1)`);
  const table = preview.getByRole("table", { name: "Now (v1) and After approval" });
  const summary = table.locator('tr[data-field="summary"]');
  await expect(summary).toHaveClass(/changed/);
  await expect(summary.locator("ins").filter({ hasText: "noon" })).toHaveText(" at noon");
  await expect(table.locator('tr[data-field="title"]')).not.toHaveClass(/changed/);

  // Another editor changes the CFB while this page is open.
  const current = await page.request.get(
    `/api/trpc/cfbs.get?input=${encodeURIComponent(JSON.stringify({ cfb_id: cfbId }))}`,
  );
  expect(current.status()).toBe(200);
  const cfb = (await current.json()).result.data;
  const edited = await page.request.post("/api/trpc/cfbs.update", {
    headers: { Origin: origin(baseURL), "Content-Type": "application/json" },
    data: {
      cfb_id: cfbId,
      version: cfb.version,
      domain: cfb.domain,
      kind: cfb.kind,
      confidence: cfb.confidence,
      title: cfb.title,
      summary: "The pager rotates every Tuesday morning.",
      text: cfb.text,
      tags: [...cfb.tags, "oncall"],
      entities: cfb.entities,
      trust_tier: cfb.trust_tier,
      source_refs: cfb.source_refs,
    },
  });
  expect(edited.status(), await edited.text()).toBe(200);

  // Approving from the keyboard what the page showed (version 1) is refused, naming what changed.
  await page.keyboard.press("a");
  const conflict = page.getByRole("alert").filter({ hasText: "changed while you were reviewing" });
  await expect(conflict).toContainText(`CFB ${cfbId} is at version 2, not 1: summary, tags changed`);
  await expect(page.getByTestId("proposal-review").getByText("pending", { exact: true })).toBeVisible();

  // Reload the preview: now against version 2, and approving lands.
  await conflict.getByRole("button", { name: "Show the current version" }).click();
  await expect(preview).toContainText(`rewrites ${cfbId} (version 2)`);
  await expect(preview.locator('tr[data-field="summary"] del').filter({ hasText: "morning" })).toBeVisible();
  await page.keyboard.press("a");
  await expect(page.getByRole("status").filter({ hasText: "Approved" })).toContainText(`Approved as ${cfbId}`);
  await page.getByRole("status").getByRole("link", { name: cfbId }).click();
  await expect(page.getByTestId("cfb-history")).toContainText("v3 update");
  // The CFB's page lists the proposals that touched it: the one that created it, this one.
  const touched = page.getByTestId("cfb-proposals").getByRole("listitem");
  await expect(touched).toHaveCount(2);
  await expect(touched.first()).toContainText("promoted into this CFB");
});

test("edit then approve from the proposal page: E opens the editor, the diff follows the edits", async ({ page }) => {
  const cfbId = await knowledge(page, "We decided to freeze merges every Thursday.", "Freeze merges every Thursday");
  await openUpdateProposal(page, "We decided to freeze merges every Thursday afternoon.", "every Thursday afternoon");

  await page.keyboard.press("e");
  const editor = page.getByRole("form", { name: /^Edit proposal/ });
  await expect(editor).toBeVisible();
  // E puts the cursor in the editor; Esc closes it without saving, E opens it again.
  await expect(editor.getByLabel("Title")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(editor).toHaveCount(0);
  await page.keyboard.press("e");
  await expect(editor).toBeVisible();
  await editor.getByLabel("Title").fill("Merge freeze on Thursday afternoons");
  // Tags are chips: a typed tag becomes one on Enter, × takes it back, a current tag drops on a click.
  const tagBox = editor.getByLabel("Tags to add");
  await tagBox.fill("oops");
  await tagBox.press("Enter");
  await editor.getByRole("button", { name: "Do not add tag oops" }).click();
  await expect(editor.getByRole("button", { name: "Do not add tag oops" })).toHaveCount(0);
  await tagBox.fill("release");
  await tagBox.press("Enter");
  await expect(editor.getByRole("button", { name: "Do not add tag release" })).toBeVisible();
  await expect(tagBox).toHaveValue("");
  const preview = page.getByRole("region", { name: /What would change/ });
  await expect(preview.getByRole("heading")).toHaveText("What would change (with your edits)");
  const title = preview.locator('tr[data-field="title"]');
  await expect(title).toHaveClass(/changed/);
  await expect(title.locator("ins").first()).toBeVisible();
  await expect(preview.locator('tr[data-field="tags"] ins')).toHaveText("release");

  await editor.getByRole("button", { name: "Save & approve" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approved" })).toContainText(
    `Approved with edits as ${cfbId}`,
  );
  await page.goto(`/cfbs/${cfbId}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Merge freeze on Thursday afternoons");
});

test("a queue card offers what the server allows: its main approval is the server's, on the CFB it names", async ({
  page,
}) => {
  const cfbId = await knowledge(page, "We decided to water the office plants every Monday.", "Water the office plants");
  await sendChat(page, "We decided to water the office plants every Monday before nine.");
  const chatCard = page.getByRole("region", { name: "Chat" }).getByRole("article").filter({ hasText: "before nine" });
  await expect(chatCard.locator('button[aria-keyshortcuts="A"]')).toHaveText(/Approve update of CFB-\d+/);
  await openQueue(page);
  const card = page.getByTestId("proposal-queue").getByRole("article").filter({ hasText: "before nine" }).first();
  await expect(card).toBeVisible();
  const proposalId = ((await card.getAttribute("data-testid")) ?? "").replace(/^proposal-/, "");
  const answer = await page.request.get(
    `/api/trpc/proposals.get?input=${encodeURIComponent(JSON.stringify({ proposal_id: proposalId }))}`,
  );
  expect(answer.status()).toBe(200);
  const { actions } = (await answer.json()).result.data;
  // The restatement updates the CFB just written: that is the main approval, A's, highlighted.
  expect(actions).toMatchObject({ primary: "approve_update", update: { cfb_id: cfbId }, edit: "update" });
  const main = card.locator('button[aria-keyshortcuts="A"]');
  await expect(main).toHaveText(new RegExp(`^Approve update of ${cfbId} “.+”$`));
  await expect(main).toHaveClass(/approve/);
  // Exactly the buttons the allowed actions name.
  const allowed = (action: string, label: string | RegExp) => (actions.allowed.includes(action) ? [label] : []);
  await expect(card.getByRole("button")).toHaveText([
    ...allowed("approve_create", "Approve"),
    ...allowed("approve_update", new RegExp(`^Approve update of ${cfbId} “.+”$`)),
    ...allowed("edit_then_approve", "Edit & approve"),
    ...allowed("reject", "Reject…"),
    // The CFB it restates: the way out when the update is not wanted.
    `Already known: ${cfbId}`,
  ]);
  expect(actions.covered_by).toMatchObject({ cfb_id: cfbId });
  // A, with the card focused, does what that button does.
  await card.focus();
  await page.keyboard.press("a");
  await expect(page.getByTestId("decided-here")).toContainText(`as ${cfbId}`);
  await expect(card).toHaveCount(0);
});

test("an unknown proposal says so and links back to the queue", async ({ page }) => {
  await page.goto("/proposals/UP-999999");
  await expect(page.getByRole("alert").filter({ hasText: "Could not load" })).toContainText(
    "proposal UP-999999 does not exist",
  );
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Review queue" }).click();
  await expect(page.getByTestId("proposal-queue")).toBeVisible();
});

test("at a phone's width the queue, the proposal page and a CFB's page fit the screen (tables scroll inside)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/review");
  const card = page.getByTestId("proposal-queue").getByRole("article").first();
  await expect(card).toBeVisible();
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await fits()).toBe(true);
  await card.getByRole("heading").getByRole("link").click();
  await expect(page.getByTestId("proposal-review")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await fits()).toBe(true);
  // The side-by-side change breaks lines between words, never inside an ordinary word.
  const table = page.locator("table.side-by-side").first();
  await expect(table).toBeVisible();
  const split = await table.evaluate((t) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(t, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (const m of text.matchAll(/[A-Za-z]{2,12}/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) broken.push(m[0]);
      }
    }
    return broken;
  });
  expect(split).toEqual([]);
  await page.goto("/cfbs");
  await expect(page.getByTestId("cfb-list").getByRole("link").first()).toBeVisible();
  expect(await fits()).toBe(true);
  await page
    .getByTestId("cfb-list")
    .getByRole("link", { name: /^CFB-\d{4}$/ })
    .first()
    .click();
  await expect(page.getByTestId("cfb-history")).toBeVisible();
  expect(await fits()).toBe(true);
});
