import { expect, test } from "@playwright/test";
import { DEMO_USER, JAM, sendChat, signIn, signOut, unique } from "./helpers";

// Visibility in a real browser (issue 19): the demo user approves their own proposal, which makes
// knowledge private to them; a Jam editor finds it under the "private" filter of /cfbs, endorses it
// from its page with one click, and the page, the history and the audit log say so.

test("a user's approval is private to them until a Jam editor endorses it from the CFB page", async ({ page }) => {
  const pet = `axolotl${unique()}`;
  await signIn(page, DEMO_USER.email, DEMO_USER.password);
  await page.goto("/chat");
  await sendChat(page, `We decided to feed the office ${pet} at noon.`);
  const preview = page.getByRole("region", { name: "Chat" }).getByRole("article").filter({ hasText: pet });
  await preview.getByRole("button", { name: "Approve", exact: true }).click();
  const outcome = preview.getByRole("status");
  await expect(outcome).toContainText(/Approved as CFB-\d{4}/);
  const cfbId = (await outcome.getByRole("link").textContent()) ?? "";

  // The owner sees it marked private, with no way to share it themselves.
  await outcome.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(pet);
  await expect(page.getByTestId("cfb-private")).toHaveText(`private to ${DEMO_USER.email}`);
  await expect(page.getByTestId("cfb-visibility")).toContainText(`only the threads of ${DEMO_USER.email}`);
  await expect(page.getByRole("button", { name: "Endorse into shared knowledge" })).toHaveCount(0);
  await signOut(page);

  // A Jam editor: the knowledge browser's private filter lists what awaits endorsement.
  await signIn(page, JAM.email, JAM.password);
  await page.goto("/cfbs");
  await page.getByLabel("Visibility").selectOption("private");
  const item = page.getByTestId("cfb-list").getByRole("listitem").filter({ hasText: cfbId });
  await expect(item.getByTestId("cfb-private")).toHaveText(`private to ${DEMO_USER.email}`);
  await item.getByRole("link", { name: cfbId }).click();

  await page.getByRole("button", { name: "Endorse into shared knowledge" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Endorsed as v2" })).toBeVisible();
  await expect(page.getByTestId("cfb-visibility")).toContainText("Shared knowledge: every thread may retrieve it.");
  await expect(page.getByTestId("cfb-private")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Endorse into shared knowledge" })).toHaveCount(0);
  const history = page.getByTestId("cfb-history");
  await expect(history).toContainText("v2 endorse");
  const changes = history.getByRole("table", { name: "Changes in v2" });
  await expect(changes).toContainText("visibility");
  await expect(changes).toContainText("private_to");

  // Gone from the private filter; in the audit log with the editor and whose it was.
  await page.goto("/cfbs");
  await page.getByLabel("Visibility").selectOption("private");
  await expect(page.getByTestId("cfb-list").getByRole("listitem").filter({ hasText: cfbId })).toHaveCount(0);
  await page.getByRole("link", { name: "Audit" }).click();
  const row = page.getByTestId("audit-list").getByRole("row").filter({ hasText: "made a CFB shared" }).filter({
    hasText: cfbId,
  });
  await expect(row).toContainText(JAM.email);
  await expect(row).toContainText(DEMO_USER.email);
});
