import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { DEMO_USER, JAM, origin, BEAT_PROMPT as PROMPT, signIn, startBeat } from "./helpers";

// The checkpoints page in a real browser: a Jam editor starts the Umbra beat, reviews its summary
// at the checkpoint and decides; the recent runs show how it ended. The database is shared with
// the other spec files, so counts are matched loosely. Every test ends the beat it starts: a
// second start while one is under way is CONFLICT.

async function openCheckpoints(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Checkpoints" }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkpoints");
}

/** Starts a workflow from its definition over the API, as the signed-in editor; the run as it answers. */
async function startOverApi(
  page: Page,
  baseURL: string | undefined,
  definition: string,
): Promise<{ run_id: string; status: string }> {
  const started = await page.request.post("/api/trpc/workflows.start", {
    headers: { Origin: origin(baseURL), "Content-Type": "application/json" },
    data: { definition },
  });
  expect(started.status()).toBe(200);
  return (await started.json()).result.data;
}

function recentRun(page: Page, runId: string): Locator {
  return page.getByRole("region", { name: "Recent runs" }).locator(`tbody[data-run-id="${runId}"]`);
}

test.describe("as a Jam editor", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, JAM.email, JAM.password);
  });

  test("the Umbra beat stops for review; skipping promotion with feedback ends it done", async ({ page }) => {
    // A pending proposal, so the summary has something to list.
    await page.goto("/chat");
    await page.getByLabel(/^Message/).fill("We decided to descale the espresso machine every Friday.");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByRole("button", { name: "Sending…" })).toHaveCount(0);
    await page.goto("/review");
    await expect(
      page.getByTestId("proposal-queue").getByRole("article").filter({ hasText: "espresso machine" }).first(),
    ).toBeVisible();

    await openCheckpoints(page);
    const { runId, card } = await startBeat(page);
    await expect(card).toContainText("umbra-beat");
    await expect(card).toContainText(`started by ${JAM.email} via dashboard`);
    await expect(card.getByRole("heading", { name: PROMPT })).toBeVisible();
    // The summary file, rendered: a heading and tables, not Markdown source.
    const file = card.getByRole("region", { name: "File out/umbra/beat-summary.md" });
    await expect(file.getByRole("heading", { name: "Umbra beat: review before promotion" })).toBeVisible();
    await expect(file.getByRole("table").first()).toBeVisible();
    await expect(file).not.toContainText("| ---");
    // The plan is offered per item, each linked to its proposal; unchecking one keeps it queued.
    const plan = card.getByTestId("checkpoint-plan");
    const item = plan.getByRole("link", { name: /espresso machine/ }).first();
    await expect(item).toHaveAttribute("href", /^\/proposals\/UP-\d+$/);
    const legend = plan.locator("legend");
    const before = Number((await legend.textContent())?.match(/\((\d+) of/)?.[1]);
    await plan
      .getByRole("checkbox", { name: /espresso machine/ })
      .first()
      .uncheck();
    await expect(legend).toContainText(`(${before - 1} of`);

    // Skip promotion takes feedback; the button names the decision.
    await expect(card.getByLabel(/^Feedback/)).toHaveCount(0);
    await card.getByRole("radio", { name: "Skip promotion" }).check();
    await card.getByLabel(/^Feedback/).fill("Not this week: the audit is on");
    await card.getByRole("button", { name: "Confirm Skip promotion" }).click();

    const inbox = page.getByRole("region", { name: "Checkpoints inbox" });
    await expect(inbox.getByRole("status")).toContainText(`${runId}: “Skip promotion” decided; it is done`);
    await expect(inbox.getByRole("article").filter({ hasText: runId })).toHaveCount(0);
    await expect(inbox).toContainText("No run is waiting for a decision.");

    const run = recentRun(page, runId);
    await expect(run.getByText("done", { exact: true })).toBeVisible();
    await expect(run.getByTestId("exit-code")).toHaveText("0");
    await expect(
      run.getByRole("list", { name: "Phases" }).getByRole("listitem").filter({ hasText: "promote" }),
    ).toHaveText(/skipped: promote/);
    await run.locator("summary").click();
    const decision = run
      .getByRole("table", { name: `Decisions in ${runId}` })
      .getByRole("row")
      .nth(1);
    await expect(decision).toContainText("review");
    await expect(decision).toContainText("skip_phases");
    await expect(decision).toContainText("skipped: promote");
    await expect(decision).toContainText("Not this week: the audit is on");
  });

  test("a checkpoint waiting for this editor shows in the nav, with its assignee and timeout, and is decided", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/chat");
    const nav = page.getByRole("navigation", { name: "Main" });
    const badge = nav.getByTestId("checkpoint-badge");
    await expect(badge).toHaveCount(0);
    // A release gate started over the API (as a pipeline would), assigned to this editor.
    const definition = [
      `name: e2e-release-${Date.now()}`,
      "phases:",
      "  - id: ship",
      "    checkpoint:",
      '      prompt: "Ship the e2e release?"',
      `      assignees: { accounts: [${JAM.email}] }`,
      "      timeout: { after: 2h, option: Hold }",
      "      options:",
      "        - label: Ship",
      "          on_select: { action: continue }",
      "        - label: Hold",
      "          on_select: { action: abort }",
    ].join("\n");
    const { run_id: runId } = await startOverApi(page, baseURL, definition);
    await page.reload();
    await expect(badge).toHaveText("1 (1 waiting for your decision)");

    await openCheckpoints(page);
    const card = page
      .getByRole("region", { name: "Checkpoints inbox" })
      .getByRole("article", { name: "Ship the e2e release?" })
      .filter({ hasText: runId });
    await expect(card.getByTestId("checkpoint-terms")).toContainText(`Assigned to ${JAM.email}.`);
    await expect(card.getByTestId("checkpoint-terms")).toContainText('it takes "Hold"');
    await card.getByRole("radio", { name: "Ship" }).check();
    await card.getByRole("button", { name: "Confirm Ship" }).click();
    await expect(card).toHaveCount(0);
    await expect(badge).toHaveCount(0);
    const run = recentRun(page, runId);
    await expect(run.getByText("done", { exact: true })).toBeVisible();
  });

  test("a webhook phase runs as a job beside the request; the pages follow it until the receiver answers", async ({
    page,
    baseURL,
  }) => {
    // The receiver holds its answer until the test gives it.
    let answer: () => void = () => undefined;
    let arrived: () => void = () => undefined;
    const delivered = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        answer = () => res.writeHead(200, { "content-type": "application/json" }).end('{"data":{"checked":true}}');
        arrived();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const { port } = receiver.address() as AddressInfo;
    try {
      await page.goto("/workflows");
      const definition = [
        `name: e2e-hook-${Date.now()}`,
        "phases:",
        "  - id: check",
        `    run: { webhook: "http://127.0.0.1:${port}/check", retries: 0, timeout: 60s }`,
        "  - id: publish",
        "    checkpoint:",
        '      prompt: "Publish the checked page?"',
        "      options:",
        "        - label: Publish",
        "          on_select: { action: continue }",
        "        - label: Drop",
        "          on_select: { action: abort }",
      ].join("\n");
      // The start answers while the receiver still holds the delivery.
      const { run_id: runId, status } = await startOverApi(page, baseURL, definition);
      expect(status).toBe("awaiting_worker");
      await delivered;
      // The delivery is a background job: the Jobs page shows it running for this run.
      await page.goto("/admin/jobs");
      const job = page
        .getByTestId("job-list")
        .getByRole("row")
        .filter({ hasText: `Webhook delivery for ${runId}` });
      await expect(job).toContainText("running");
      await page.goto("/workflows");
      const run = recentRun(page, runId);
      await expect(run.getByTestId("worker-lease")).toContainText("webhook delivery: held by server");

      // No reload from here: the page follows the run while it is under way.
      answer();
      await expect(run.getByText("awaiting decision", { exact: true })).toBeVisible();
      const card = page
        .getByRole("region", { name: "Checkpoints inbox" })
        .getByRole("article", { name: "Publish the checked page?" })
        .filter({ hasText: runId });
      await card.getByRole("radio", { name: "Drop" }).check();
      await card.getByRole("button", { name: "Confirm Drop" }).click();
      await expect(run.getByText("aborted", { exact: true })).toBeVisible();
      await page.goto("/admin/jobs");
      await expect(job).toContainText("done");
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });

  test("a second start names the open run; aborting ends the beat with exit code 2", async ({ page }) => {
    await page.goto("/chat");
    await openCheckpoints(page);
    const { runId, card } = await startBeat(page);

    // One beat at a time: the conflict links to the open run.
    await page.getByRole("button", { name: "Start the Umbra beat" }).click();
    const conflict = page.getByRole("alert").filter({ hasText: "already under way" });
    await expect(conflict).toContainText(runId);
    await expect(conflict.getByRole("link", { name: `Go to ${runId}` })).toHaveAttribute(
      "href",
      `#checkpoint-${runId}`,
    );

    await card.getByRole("radio", { name: "Abort" }).check();
    await expect(card.getByLabel(/^Feedback/)).toHaveCount(0);
    await card.getByRole("button", { name: "Confirm Abort" }).click();
    await expect(card).toHaveCount(0);

    const run = recentRun(page, runId);
    await expect(run.getByText("aborted", { exact: true })).toBeVisible();
    await expect(run.getByTestId("exit-code")).toHaveText("2");
    await run.locator("summary").click();
    await expect(run.getByRole("table", { name: `Decisions in ${runId}` })).toContainText("abort");
  });
});

test("the demo user has no checkpoints: no nav link, and the page says so", async ({ page }) => {
  await signIn(page, DEMO_USER.email, DEMO_USER.password);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Gate" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Checkpoints" })).toHaveCount(
    0,
  );
  await page.goto("/workflows");
  await expect(page.getByRole("heading", { name: "You don’t have access" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Start the Umbra beat" })).toHaveCount(0);
});
