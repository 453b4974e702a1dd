import { expect, test } from "@playwright/test";
import { JAM, signIn } from "./helpers";

// Issue 35: a server that does not answer (stopped, restarting, the network gone) is said once,
// in words, at the top of the page, and not as each panel's raw "Failed to fetch"; the page
// keeps trying, and the banner goes with the first answer.

test("an unreachable server shows one banner in words, and it goes once the server answers", async ({ page }) => {
  await signIn(page, JAM.email, JAM.password);
  await expect(page.getByRole("heading", { level: 1, name: "Review queue" })).toBeVisible();
  // Every API call fails without an answer, as with a stopped server.
  await page.route("**/api/trpc/**", (route) => route.abort("connectionrefused"));
  await page.getByRole("button", { name: /^approved/ }).click();
  const banner = page.getByTestId("connection-banner");
  await expect(banner).toContainText("The server is not reachable. Retrying…");
  await expect(page.getByText("Failed to fetch")).toHaveCount(0);

  await page.unroute("**/api/trpc/**");
  await banner.getByRole("button", { name: "Retry now" }).click();
  await expect(banner).toHaveCount(0);
});
