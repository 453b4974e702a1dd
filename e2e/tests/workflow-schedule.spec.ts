import { expect, test } from "@playwright/test";
import { DEMO_USER, JAM, signIn, signOut } from "./helpers";

// The Umbra beat's schedule on /workflows: a Jam editor sets a weekly schedule (a bad time is
// refused naming the field) and sees the next run; the demo user cannot see it. The day is three
// days ahead, so the e2e server's own timer never starts a beat during the other specs, and the
// test turns the schedule off again at the end.

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

test("a Jam editor sets a weekly schedule and sees its next run; the demo user cannot see it", async ({ page }) => {
  const day = WEEKDAYS[(new Date().getUTCDay() + 3) % 7] as string;
  await signIn(page, JAM.email, JAM.password);
  await page.goto("/workflows");
  const panel = page.getByRole("region", { name: "Schedule", exact: true });
  await expect(panel.getByTestId("schedule-next-run")).toBeVisible();

  await panel.getByLabel("Run the Umbra beat on a schedule").check();
  await panel.getByLabel("Cadence").selectOption("weekly");
  await panel.getByLabel("Weekday").selectOption(day);
  await panel.getByLabel(/^Time/).fill("7:5");
  await panel.getByRole("button", { name: "Save schedule" }).click();
  await expect(panel.getByRole("alert")).toContainText('Time: must be HH:MM in UTC, e.g. "06:30"');

  await panel.getByLabel(/^Time/).fill("06:30");
  await panel.getByRole("button", { name: "Save schedule" }).click();
  await expect(panel.getByRole("status")).toContainText("Schedule saved.");
  await expect(panel.getByRole("alert")).toHaveCount(0);
  await expect(panel).toContainText(`The Umbra beat runs every ${day} at 06:30 UTC, as ${JAM.email}.`);
  const next = panel.getByTestId("schedule-next-run");
  await expect(next).toContainText(day);
  await expect(next).toContainText("06:30 UTC");
  await expect(panel).toContainText("No scheduled run yet.");

  // Still there after a reload: it is stored, not just shown.
  await page.reload();
  await expect(panel.getByLabel("Weekday")).toHaveValue(String(WEEKDAYS.indexOf(day)));
  await expect(panel.getByLabel(/^Time/)).toHaveValue("06:30");

  await panel.getByLabel("Run the Umbra beat on a schedule").uncheck();
  await panel.getByRole("button", { name: "Save schedule" }).click();
  await expect(next).toHaveText("Next run: none (the schedule is off)");

  await signOut(page);
  await signIn(page, DEMO_USER.email, DEMO_USER.password);
  await page.goto("/workflows");
  await expect(page.getByRole("heading", { name: "You don’t have access" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Schedule", exact: true })).toHaveCount(0);
  await expect(page.getByText("Next run:")).toHaveCount(0);
});
