import { expect, test } from "@playwright/test";
import { JAM, signIn, unique } from "./helpers";

// A Jam editor teaches the router on /admin/routing: the page names the threshold and the
// fallback domain, a message filed under a domain is listed as learned (and counted for its
// domain), and removing it takes it away again.

test("a Jam editor files a message under a domain and removes it again", async ({ page }) => {
  await signIn(page, JAM.email, JAM.password);
  await page.goto("/admin/routing");
  await expect(page.getByRole("heading", { name: "Routing" })).toBeVisible();
  await expect(page.getByText(/at least 40 % sure; otherwise the turn is unrouted/)).toBeVisible();
  const text = `the tire pressure monitor keeps beeping ${unique()}`;
  await page.getByLabel("Message").fill(text);
  await page.getByLabel("belongs to").selectOption("rv_service");
  await page.getByRole("button", { name: "File it" }).click();
  const learned = page.getByRole("table", { name: "Learned examples" });
  const row = learned.getByRole("row").filter({ hasText: text });
  await expect(row).toContainText("rv_service");
  await expect(row).toContainText("added here");
  await expect(page.getByLabel("Message")).toHaveValue("");

  await row.getByRole("button", { name: `Remove "${text}"` }).click();
  await expect(page.getByRole("row").filter({ hasText: text })).toHaveCount(0);
});

test("a message with no word is refused, saying why", async ({ page }) => {
  await signIn(page, JAM.email, JAM.password);
  await page.goto("/admin/routing");
  await page.getByLabel("Message").fill("🙂 !!");
  await page.getByRole("button", { name: "File it" }).click();
  await expect(
    page.getByText("Could not file the message: text: holds no word the router can learn from"),
  ).toBeVisible();
});
