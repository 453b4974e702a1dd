import { expect, test } from "@playwright/test";
import { chatThreadId, DEMO_USER, sendChatAndWait, signIn } from "./helpers";

// Procedure mode (seed 004) in the browser: a technician picks the water pump, describes the
// problem, asks where the fuse panel is, answers by typing and by the option buttons, authorizes
// the repair and sees the final report, in the chat and on the thread's page.

test("a short water-pump diagnosis: active step, clarification, options, final report", async ({ page }) => {
  await signIn(page, DEMO_USER.email, DEMO_USER.password);
  await page.goto("/chat");
  await page.getByLabel("Guided diagnosis").selectOption("water_pump");

  await sendChatAndWait(page, "Customer says the water pump won't run and there is no water at the faucet");
  const panel = page.getByTestId("procedure-panel");
  await expect(panel.getByRole("heading", { name: "12 V fresh-water pump" })).toBeVisible();
  await expect(page.getByTestId("procedure-mode")).toHaveText("Diagnosing");
  await expect(page.getByTestId("procedure-active-step")).toContainText("Is the water pump fuse");
  // Once the thread is bound the picker is gone: a thread keeps its procedure.
  await expect(page.getByLabel("Guided diagnosis")).toHaveCount(0);

  // A clarification is answered from the catalog, then the same step is asked again.
  await sendChatAndWait(page, "where is the fuse panel?");
  await expect(page.getByTestId("assistant-reply").last()).toContainText("distribution centre");
  await expect(page.getByTestId("procedure-mode")).toHaveText("Diagnosing · locate");
  await expect(page.getByTestId("procedure-active-step")).toContainText("Is the water pump fuse");

  // An option button sends the option as the reply.
  const replies = page.getByTestId("assistant-reply");
  await panel.getByRole("button", { name: "Fuse intact / breaker on" }).click();
  await expect(replies).toHaveCount(3);
  await expect(page.getByTestId("procedure-active-step")).toContainText("battery voltage at the pump connector");

  await sendChatAndWait(page, "12 volts at the connector");
  await sendChatAndWait(page, "no, the pump does not run");
  await expect(page.getByTestId("procedure-mode")).toHaveText("Awaiting authorization");
  await expect(replies.last()).toContainText("Do you authorize the repair?");

  await panel.getByRole("button", { name: "yes" }).click();
  await expect(replies).toHaveCount(6);
  await expect(page.getByTestId("procedure-mode")).toHaveText("Final report");
  const report = page.getByTestId("procedure-report");
  await expect(report).toContainText("Customer says the water pump won't run");
  await expect(report).toContainText("Replace the water pump");
  await expect(report).toContainText("Repair authorized");

  // The thread's page shows the same diagnosis with its report.
  const threadId = await chatThreadId(page);
  await page.goto(`/threads/${threadId}`);
  await expect(page.getByTestId("procedure-report")).toContainText("Replace the water pump");
  await expect(page.getByTestId("procedure-report-steps").getByRole("listitem")).toHaveCount(3);
  // Findings read as the technician answered, never as the catalog's keys ("pump_runs=no").
  await expect(page.getByTestId("procedure-report-steps")).not.toContainText(/\w+=\w+/);
  // Each turn's trace shows the context engine's directive.
  await expect(page.locator('li[data-phase="context"]').last()).toBeVisible();
  await page.goto("/threads");
  await expect(page.getByTestId("thread-list").locator(`li[data-thread-id="${threadId}"]`)).toContainText(
    "diagnosis: water_pump",
  );
});

test("a safety stop holds the case until it is cleared; a step the technician cannot check is skipped and listed", async ({
  page,
}) => {
  await signIn(page, DEMO_USER.email, DEMO_USER.password);
  await page.goto("/chat");
  await page.getByLabel("Guided diagnosis").selectOption("furnace");

  await sendChatAndWait(page, "furnace blows cold air and I smell propane in the coach");
  await expect(page.getByTestId("procedure-mode")).toHaveText("Safety stop");
  await expect(page.getByTestId("procedure-safety")).toContainText("shut the tank valve");
  // No step is offered while the hazard stands.
  await expect(page.getByTestId("procedure-active-step")).toHaveCount(0);
  await expect(page.getByTestId("assistant-reply").last()).toContainText("Stop:");

  await sendChatAndWait(page, "aired it out, the leak test passed");
  await expect(page.getByTestId("procedure-mode")).toHaveText("Diagnosing");
  await expect(page.getByTestId("procedure-safety")).toHaveCount(0);
  await expect(page.getByTestId("procedure-active-step")).toContainText("Is there LP");

  // "Can't check: skip" passes the step as not checked; the panel lists it and asks the next one.
  const replies = page.getByTestId("assistant-reply");
  await page.getByTestId("procedure-panel").getByRole("button", { name: "Can't check: skip" }).click();
  await expect(replies).toHaveCount(3);
  await expect(page.getByTestId("procedure-unchecked")).toContainText("Is there LP");
  await expect(page.getByTestId("procedure-unchecked")).toContainText("skipped");
  await expect(page.getByTestId("procedure-active-step")).toContainText("thermostat");
});
