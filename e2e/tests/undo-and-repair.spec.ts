import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { JAM, openQueue, origin, sendChat, signIn, unique } from "./helpers";

// Undo and repair in a real browser, as a Jam editor: revert a CFB to an earlier version from its
// page's history (after a confirmation, which Cancel leaves untouched), retire it (it leaves the
// CFB list, its page stays) and restore it, and reopen a rejected proposal from its page.

test.beforeEach(async ({ page }) => {
  await signIn(page, JAM.email, JAM.password);
});

/** A tRPC mutation as the dashboard sends it (session cookie, our Origin); its answer's data. */
async function mutate(request: APIRequestContext, baseURL: string | undefined, path: string, input: unknown) {
  const res = await request.post(`/api/trpc/${path}`, {
    headers: { Origin: origin(baseURL), "Content-Type": "application/json" },
    data: input,
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).result.data;
}

/** A CFB at version 2: authored, then its summary edited. Its id. */
async function editedCfb(page: Page, baseURL: string | undefined, title: string): Promise<string> {
  const draft = {
    domain: "general",
    kind: "heuristic",
    confidence: 0.7,
    title,
    summary: "Backups are restored as a drill every first Monday.",
    text: null,
    tags: ["backups"],
    entities: [],
    trust_tier: "user_approved",
    source_refs: [],
  };
  const created = await mutate(page.request, baseURL, "cfbs.create", draft);
  await mutate(page.request, baseURL, "cfbs.update", {
    ...draft,
    cfb_id: created.cfb_id,
    version: 1,
    summary: "Backups are restored as a drill every quarter.",
    tags: ["backups", "drills"],
  });
  return created.cfb_id;
}

test("revert restores a version from the CFB page's history, after a confirmation", async ({ page, baseURL }) => {
  const title = `Restore drill ${unique()}`;
  const cfbId = await editedCfb(page, baseURL, title);
  await page.goto(`/cfbs/${cfbId}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const summary = page.getByRole("paragraph").filter({ hasText: /^Backups are restored as a drill every/ });
  await expect(summary).toHaveText("Backups are restored as a drill every quarter.");
  const history = page.getByTestId("cfb-history");
  await expect(history.getByRole("listitem")).toHaveCount(2);
  // The current version has nothing to revert to; the first one has.
  await expect(history.getByRole("button", { name: "Revert to v2…" })).toHaveCount(0);

  // Cancel leaves everything as it was.
  await history.getByRole("button", { name: "Revert to v1…" }).click();
  let dialog = page.getByRole("dialog", { name: `Revert ${cfbId} to version 1?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("becomes version 3, replacing version 2");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(history.getByRole("listitem")).toHaveCount(2);
  await expect(summary).toHaveText("Backups are restored as a drill every quarter.");

  // Confirmed, version 1's content comes back as version 3.
  await history.getByRole("button", { name: "Revert to v1…" }).click();
  dialog = page.getByRole("dialog", { name: `Revert ${cfbId} to version 1?` });
  await dialog.getByRole("button", { name: "Revert to v1" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("v3", { exact: true })).toBeVisible();
  await expect(summary).toHaveText("Backups are restored as a drill every first Monday.");
  await expect(history.getByRole("listitem")).toHaveCount(3);
  const reverted = history.getByRole("listitem").first();
  await expect(reverted).toContainText("v3 revert");
  const changes = reverted.getByRole("table", { name: "Changes in v3" });
  await expect(changes.locator('tr:has(code:text-is("summary")) ins')).toHaveText("first Monday");
  // Now v2 is the one that differs.
  await expect(history.getByRole("button", { name: "Revert to v2…" })).toBeVisible();
  await expect(history.getByRole("button", { name: "Revert to v1…" })).toHaveCount(0);
});

test("retire asks first, takes the CFB out of the list with its page kept; restore brings it back", async ({
  page,
  baseURL,
}) => {
  const title = `Retired drill ${unique()}`;
  const cfbId = await editedCfb(page, baseURL, title);
  await page.goto(`/cfbs/${cfbId}`);
  await page.getByRole("button", { name: "Retire…" }).click();
  const dialog = page.getByRole("dialog", { name: `Retire ${cfbId}?` });
  await expect(dialog).toContainText("it can be restored here");
  await dialog.getByRole("button", { name: "Retire", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  const notice = page.getByTestId("cfb-retired");
  await expect(notice).toContainText("Retired on");
  await expect(page.getByTestId("cfb-history").getByRole("listitem").first()).toContainText("v3 retire");

  await page.goto("/cfbs");
  await page.getByLabel("Filter CFBs").fill(title);
  await expect(page.getByText("No CFBs match.")).toBeVisible();
  await page.getByRole("button", { name: "Retired" }).click();
  await expect(page.getByTestId("cfb-list").getByRole("link", { name: cfbId })).toBeVisible();
  await page.getByTestId("cfb-list").getByRole("link", { name: cfbId }).click();

  await page.getByTestId("cfb-retired").getByRole("button", { name: "Restore" }).click();
  await expect(page.getByTestId("cfb-retired")).toHaveCount(0);
  await expect(page.getByTestId("cfb-history").getByRole("listitem").first()).toContainText("v4 restore");
});

test("a rejected proposal reopens from its page, keeps its rejection and can be approved", async ({ page }) => {
  const topic = `Greenhouse${unique()}`;
  await page.goto("/chat");
  await sendChat(page, `We decided to water the ${topic} tomatoes every evening.`);
  await openQueue(page);
  const card = page.getByTestId("proposal-queue").getByRole("article").filter({ hasText: topic }).first();
  await expect(card).toBeVisible();
  await card.getByRole("heading").getByRole("link").click();
  await expect(page.getByTestId("proposal-review")).toBeVisible();

  await page.keyboard.press("r");
  await page.keyboard.press("Enter");
  const review = page.getByTestId("proposal-review");
  await expect(review.getByRole("status").filter({ hasText: "Rejected" })).toBeVisible();
  await review.getByRole("button", { name: "Reopen for review" }).click();
  await expect(review.getByText("pending", { exact: true })).toBeVisible();
  await expect(page.getByTestId("earlier-decisions")).toContainText("rejected by a Jam editor");
  await page.keyboard.press("a");
  await expect(review.getByRole("status").filter({ hasText: "Approved" })).toContainText(/Approved as CFB-\d+/);
  await expect(page.getByTestId("earlier-decisions")).toContainText("reopened on");
});
