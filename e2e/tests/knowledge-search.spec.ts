import { expect, test } from "@playwright/test";
import { JAM, signIn } from "./helpers";

// Issue 35: the knowledge search finds a CFB by its id as people type it, and keeps its query in
// the URL, so a reload or a shared link shows the same list.

test("searching knowledge by id, with the query kept in the URL", async ({ page }) => {
  await signIn(page, JAM.email, JAM.password);
  await page.goto("/cfbs");
  const list = page.getByRole("main");
  await page.getByLabel("Filter CFBs").fill("cfb 1");
  await expect(page).toHaveURL(/\/cfbs\?q=cfb\+1$/);
  await expect(list.getByRole("link", { name: "CFB-0001", exact: true })).toBeVisible();
  await expect(list.locator('a[href^="/cfbs/CFB-"]')).toHaveCount(1);
  await page.reload();
  await expect(page.getByLabel("Filter CFBs")).toHaveValue("cfb 1");
});
