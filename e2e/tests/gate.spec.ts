import { expect, test } from "@playwright/test";
import { DEMO_USER, signIn, unique } from "./helpers";

// The output gate page: a user's own turns appear with the gate's verdict per attempt, and two
// outputs compared by hand give the seed's Test 3 decision with its reasons.

test("the gate page lists turn decisions and compares two outputs", async ({ page }) => {
  await signIn(page, DEMO_USER.email, DEMO_USER.password);
  await page.goto("/chat");
  const replies = page.getByTestId("assistant-reply");
  await page.getByLabel(/^Message/).fill(`Which queue handles ${unique()} exports?`);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(replies).toHaveCount(1);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Gate" }).click();
  await expect(page).toHaveURL(/\/gate$/);
  const list = page.getByTestId("gate-list");
  const allowed = list.locator('tr[data-status="ALLOW"]').first();
  await expect(allowed).toContainText("attempt 1 · delivered");
  await expect(allowed).toContainText("Personal data (PII) passed: none found");
  await expect(allowed).toContainText("Output contract passed: No issues");

  // Nothing to compare is refused, and nothing is stored.
  await page.getByRole("button", { name: "Evaluate" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "an empty output is nothing to compare" })).toBeVisible();

  await page.getByLabel("Baseline output (known good)").fill("Hello! How can I help with your account today?");
  await page.getByLabel("Candidate output").fill("Contact me at hi@example.com or 415-555-1212 and I will follow up.");
  await page.getByRole("button", { name: "Evaluate" }).click();
  const result = page.getByTestId("gate-result");
  await expect(result).toContainText("Final decision: BLOCK");
  // The failing check says it failed, with what it found, and the matches are marked in the text.
  await expect(result.locator('li[data-policy="pii"]')).toHaveText("✗ Personal data (PII) blocked: found 2 matches");
  await expect(result).toContainText("PII detected: EMAIL(1), PHONE(1). Total matches: 2.");
  await expect(result.getByTestId("pii-highlight").locator("mark")).toHaveText(["hi@example.com", "415-555-1212"]);

  // A finding can be waived from the result: without a reason the server names the field; with
  // one, the PII findings stop counting and the decision lists the waiver.
  await result.getByRole("button", { name: "Waive PII_BLOCK_EMAIL" }).click();
  const row = page.getByTestId("waiver-row");
  await expect(row.getByLabel("Codes")).toHaveValue("PII_BLOCK_EMAIL");
  await row.getByLabel("Codes").fill("PII_BLOCK_EMAIL, PII_BLOCK_PHONE");
  await row.getByLabel("Owner").fill("ana@example.com");
  await page.getByRole("button", { name: "Evaluate" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "config.waivers.0.reason" })).toBeVisible();
  await row.getByLabel("Reason").fill("support number is public");
  await page.getByRole("button", { name: "Evaluate" }).click();
  // PII no longer counts; the answer is 43% longer, which the default thresholds still warn on.
  await expect(result).toContainText("Final decision: WARN");
  await expect(result.locator('li[data-policy="pii"]')).toHaveText(
    "✓ Personal data (PII) passed: found 2 matches (waived)",
  );
  await expect(page.getByTestId("waiver-outcome")).toContainText("Waived PII_BLOCK_EMAIL, PII_BLOCK_PHONE until");
  // The chatbot preset lets a chat answer grow that much; without the waiver the PII blocks again.
  await page.getByLabel("Preset").selectOption("chatbot");
  await page.getByRole("button", { name: "Evaluate" }).click();
  await expect(result).toContainText("Final decision: ALLOW");
  await page.getByRole("button", { name: "Remove waiver 1" }).click();
  await page.getByRole("button", { name: "Evaluate" }).click();
  await expect(result).toContainText("Final decision: BLOCK");

  // The comparison is stored apart from the chat turns' decisions, and the BLOCK filter keeps it.
  await expect(list.locator("tr[data-status]").filter({ hasText: "dashboard" })).toHaveCount(0);
  await page.getByRole("button", { name: "Comparisons (dashboard and API)" }).click();
  await page.getByLabel("Decision", { exact: true }).selectOption("BLOCK");
  await expect(list.locator("tr[data-status]").first()).toContainText("dashboard");
  await expect(list.locator('tr[data-status="ALLOW"]')).toHaveCount(0);
});
