import { expect, test } from "@playwright/test";
import { JAM, signIn } from "./helpers";

// A Jam editor checks how resolve agrees with the reviewers and asks for a refit: the demo holds
// too few decided proposals for one, so the page says how many more it needs and keeps the
// shipped rule deciding.

test("a Jam editor sees resolve's agreement and is told why a refit cannot run yet", async ({ page }) => {
  await signIn(page, JAM.email, JAM.password);
  await page.goto("/admin/resolve");
  await expect(page.getByRole("heading", { name: "Resolve and the reviewers" })).toBeVisible();
  await expect(page.getByTestId("resolve-agreement")).toContainText("Deciding now: the shipped rule");
  await page.getByRole("button", { name: "Refit on these decisions" }).click();
  await expect(page.getByText(/a refit needs at least 50 approved proposals; \d+ so far/)).toBeVisible();
  await expect(page.getByText("No refitted rule yet: the shipped rule decides.")).toBeVisible();
});
