import { type APIRequestContext, expect, test } from "@playwright/test";
import { DEMO_USER, JAM, origin, screenOf, signIn, signInRequest, startBeat } from "./helpers";

// The review desk at a team's volume (issue 35): 150 proposals from two people, some of which
// restate another subject's CFB in the same words ("the standup budget" against the office
// budget's CFB). In the list layout, at 1280 and 390 px: a bulk approval of a whole page never
// rewrites another subject's CFB, and its Undo puts every CFB back exactly as it was.

/** Knowledge the desk starts with, approved before the volume arrives. */
const BASE = [
  "We decided the office budget is approved by Finance in June.",
  "We decided the awning motor is replaced after 500 cycles.",
  "We decided the backup window runs from 01:00 to 03:00 UTC.",
];
/** The same words about other subjects: an update of a BASE CFB would be harm. Said last, so newest. */
const OTHER_SUBJECTS = [
  "We decided the standup budget is approved by Finance in June.",
  "We decided the water pump motor is replaced after 500 cycles.",
  "We decided the deploy window runs from 01:00 to 03:00 UTC.",
];
/** Said by both people, word for word: one line for a Jam editor, "×2 people". */
const SAID_BY_BOTH = "We decided the fire drill is held on the first Tuesday of each month.";
const TOPICS = [
  "the staging database",
  "the visitor badges",
  "the release notes",
  "the on-call rota",
  "the printer toner",
  "the guest wifi",
  "the support inbox",
  "the design review",
  "the fridge in the kitchen",
  "the build cache",
  "the customer newsletter",
  "the parking permits",
  "the VPN certificates",
  "the laptop refresh",
  "the incident postmortems",
];
const RULES = [
  "is checked every Monday morning",
  "belongs to the platform team",
  "is archived after 90 days",
  "needs two approvals before it changes",
  "is reviewed at the end of each quarter",
  "is cleaned every Friday afternoon",
  "is paid from the operations budget",
  "is announced in the #general channel",
  "is kept in the shared drive",
  "is renewed every twelve months",
];

/** 147 ordinary decisions, each one sentence, in batches a turn can hold (16 at most). */
function ordinaryBatches(): string[][] {
  const all = TOPICS.flatMap((topic, i) =>
    RULES.map((rule, j) => `We decided ${topic} ${rule}${(i + j) % 3 === 0 ? " from now on" : ""}.`),
  ).slice(0, 147);
  const batches: string[][] = [];
  for (let i = 0; i < all.length; i += 15) batches.push(all.slice(i, i + 15));
  return batches;
}

async function say(request: APIRequestContext, baseURL: string | undefined, sentences: readonly string[]) {
  const answer = await request.post("/chat/respond", {
    headers: { Origin: origin(baseURL), "Content-Type": "application/json" },
    data: { request_id: `volume-${Math.random().toString(36).slice(2)}`, message: sentences.join(" ") },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  const previews = (await answer.json()).ui_hints.proposal_previews as { proposal_id: string }[];
  expect(previews.length, sentences.join(" ")).toBe(sentences.length);
  return previews.map((p) => p.proposal_id);
}

async function trpc<T>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  const answer = await request.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`);
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()).result.data as T;
}

type TCfb = { cfb_id: string; version: number; [field: string]: unknown };

/** Every live CFB's content, by id: what a reviewer would compare. Versions and times move with any write. */
async function liveKnowledge(request: APIRequestContext): Promise<Map<string, Record<string, unknown>>> {
  const all = new Map<string, Record<string, unknown>>();
  let cursor: string | undefined;
  do {
    const page = await trpc<{ items: TCfb[]; next_cursor: string | null }>(request, "cfbs.list", {
      limit: 100,
      ...(cursor ? { cursor } : {}),
    });
    for (const { version, updated_ts, last_accessed_ts, staleness, ...content } of page.items)
      all.set(content.cfb_id, content);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return all;
}

const baseCfbs: string[] = [];
let otherSubjectIds: string[] = [];
const saidByBoth: { user: string; jam: string } = { user: "", jam: "" };

test.describe
  .serial("a desk of 150 proposals from two people", () => {
    test.beforeAll(async ({ playwright, baseURL }) => {
      test.setTimeout(120_000);
      const jam = await playwright.request.newContext({ baseURL });
      const user = await playwright.request.newContext({ baseURL });
      await signInRequest(jam, baseURL, JAM.email, JAM.password);
      await signInRequest(user, baseURL, DEMO_USER.email, DEMO_USER.password);
      for (const id of await say(jam, baseURL, BASE)) {
        const promoted = await jam.post("/api/trpc/promotion.promote", {
          headers: { Origin: origin(baseURL), "Content-Type": "application/json" },
          data: { proposal_id: id, action: "approve_create" },
        });
        expect(promoted.status(), await promoted.text()).toBe(200);
        baseCfbs.push((await promoted.json()).result.data.final_cfb_id);
      }
      saidByBoth.user = (await say(user, baseURL, [SAID_BY_BOTH]))[0] as string;
      saidByBoth.jam = (await say(jam, baseURL, [SAID_BY_BOTH]))[0] as string;
      // Two people, turn about.
      for (const [i, batch] of ordinaryBatches().entries()) await say(i % 2 === 0 ? user : jam, baseURL, batch);
      otherSubjectIds = await say(user, baseURL, OTHER_SUBJECTS);
      await jam.dispose();
      await user.dispose();
    });

    for (const width of [1280, 390] as const) {
      test(`at ${width} px: a page approved in bulk rewrites no other subject's CFB, and Undo restores every CFB`, async ({
        page,
      }) => {
        test.setTimeout(120_000);
        await page.setViewportSize(screenOf(width));
        await signIn(page, JAM.email, JAM.password);
        await page.goto("/review?layout=list");
        const lines = page.getByTestId("proposal-list").locator("li.proposal-line");
        await expect(lines).toHaveCount(20);
        if (width === 1280) {
          // Dense: at least 8 proposals on the first screen of a laptop.
          const visible = await lines.evaluateAll(
            (items) => items.filter((li) => li.getBoundingClientRect().bottom <= window.innerHeight).length,
          );
          expect(visible).toBeGreaterThanOrEqual(8);
        }
        await expect(page.getByTestId("queue-progress")).toHaveText(/^1 of \d+$/);
        const before = await liveKnowledge(page.request);
        for (const id of baseCfbs) expect(before.has(id)).toBe(true);

        await page.getByTestId("select-all").check();
        const bar = page.getByTestId("bulk-bar");
        const approve = bar.getByRole("button", { name: /^Approve \d+$/ });
        const approving = Number((await approve.textContent())?.replace(/\D/g, ""));
        await approve.click();
        const dialog = page.getByRole("dialog", { name: `Approve ${approving} proposals?` });
        await expect(dialog.getByTestId("bulk-held")).toContainText("about another subject");
        await dialog.getByRole("button", { name: "Approve all" }).click();
        const outcome = page.getByTestId("bulk-outcome");
        await expect(outcome).toContainText(`${approving} approved.`);

        // No other subject's CFB was touched, and no other-subject proposal became an update of one.
        const after = await liveKnowledge(page.request);
        for (const id of baseCfbs) expect(after.get(id)).toEqual(before.get(id));
        for (const id of otherSubjectIds) {
          const p = await trpc<{ status: string; promotion: { final_cfb_id: string | null } | null }>(
            page.request,
            "proposals.get",
            { proposal_id: id },
          );
          if (p.status === "approved") expect(baseCfbs).not.toContain(p.promotion?.final_cfb_id);
        }

        // Undo: every proposal pending again, every CFB exactly as before (the new ones retired).
        await outcome.getByRole("button", { name: "Undo" }).click();
        await expect(outcome).toContainText(`Undone: ${approving} of ${approving} back in the queue.`);
        expect(await liveKnowledge(page.request)).toEqual(before);
        await expect(lines).toHaveCount(20);
        await expect(page.locator('[data-testid^="departed-"]')).toHaveCount(0);
      });
    }

    for (const width of [1280, 390] as const)
      test(`at ${width} px: the Umbra beat's plan on this desk ticks no update of another subject's CFB`, async ({
        page,
      }) => {
        test.setTimeout(120_000);
        await page.setViewportSize(screenOf(width));
        await signIn(page, JAM.email, JAM.password);
        await page.goto("/workflows");
        const { card } = await startBeat(page);
        const items = card.getByTestId("checkpoint-plan").locator("li.plan-item");
        await expect(items.first()).toBeVisible();
        const rows = await items.evaluateAll((lis) =>
          lis.map((li) => ({
            text: li.textContent ?? "",
            ticked: (li.querySelector("input[type=checkbox]") as HTMLInputElement).checked,
            targets: [...li.querySelectorAll("a[href^='/cfbs/']")].map((a) => a.textContent ?? ""),
          })),
        );
        // No ticked row rewrites a CFB the desk started with (no proposal here is about their subjects),
        // and the restatements about other subjects are not ticked (here: left in the queue for a person).
        expect(rows.filter((r) => r.ticked && r.targets.some((id) => baseCfbs.includes(id)))).toEqual([]);
        expect(rows.filter((r) => r.ticked && /standup budget|water pump motor|deploy window/i.test(r.text))).toEqual(
          [],
        );
        for (const title of ["standup budget", "water pump motor", "deploy window"])
          await expect(card.getByRole("cell", { name: new RegExp(title) })).toBeVisible();
        // Ends the beat without promoting, for the specs after this one.
        await card.getByRole("radio", { name: "Skip promotion" }).check();
        await card.getByRole("button", { name: "Confirm Skip promotion" }).click();
        await expect(card).toHaveCount(0);
      });

    test("the same sentence from both people is one line, and a Jam editor's decision covers both", async ({
      page,
      browser,
      baseURL,
    }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await signIn(page, JAM.email, JAM.password);
      await page.goto("/review?layout=list&sort=oldest");
      const line = page.getByTestId("proposal-list").locator("li.proposal-line", { hasText: "fire drill" });
      await expect(line).toHaveCount(1);
      await expect(line).toContainText("×2 people");
      // The user's own queue lists theirs: the Jam editor's thread is not theirs to see.
      const userContext = await browser.newContext({ baseURL });
      const userPage = await userContext.newPage();
      await signIn(userPage, DEMO_USER.email, DEMO_USER.password);
      const theirs = await trpc<{ items: { proposal_id: string }[] }>(userPage.request, "proposals.list", {
        status: "pending",
        sort: "oldest",
        limit: 100,
      });
      expect(theirs.items.map((p) => p.proposal_id)).toContain(saidByBoth.user);
      const decided = await page.request.post("/api/trpc/promotion.promote", {
        headers: { Origin: origin(baseURL), "Content-Type": "application/json" },
        data: { proposal_id: saidByBoth.user, action: "approve_create" },
      });
      expect(decided.status(), await decided.text()).toBe(200);
      expect((await decided.json()).result.data.folded_proposal_ids).toEqual([saidByBoth.jam]);
      const folded = await trpc<{ status: string }>(page.request, "proposals.get", { proposal_id: saidByBoth.jam });
      expect(folded.status).toBe("duplicate");
      await userContext.close();
    });
  });

test("the list layout: J/K move the current line, its card takes A, and the next line follows", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, JAM.email, JAM.password);
  await page.goto("/review?layout=list");
  const lines = page.getByTestId("proposal-list").locator("li.proposal-line");
  await expect(lines.first()).toBeVisible();
  const ids = await lines.evaluateAll((items) =>
    items.slice(0, 3).map((li) => li.getAttribute("data-testid")?.replace(/^line-/, "") ?? ""),
  );
  await page.keyboard.press("j");
  await expect(page.getByTestId(`proposal-${ids[0]}`)).toBeFocused();
  await page.keyboard.press("j");
  await expect(page.getByTestId(`line-${ids[1]}`)).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId(`proposal-${ids[1]}`)).toBeFocused();
  await page.keyboard.press("k");
  await expect(page.getByTestId(`proposal-${ids[0]}`)).toBeFocused();
  await expect(page.getByTestId("queue-progress")).toHaveText(/^1 of \d+$/);
  // R asks for a reason; Enter rejects; the next line is current and its card has the focus.
  await page.keyboard.press("r");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId(`line-${ids[0]}`)).toHaveCount(0);
  await expect(page.getByTestId(`proposal-${ids[1]}`)).toBeFocused();
  await expect(page.getByTestId(`line-${ids[1]}`)).toHaveAttribute("aria-current", "true");
  // Undo of that one decision, from its line above the queue.
  await page.getByTestId("decided-here").getByRole("button", { name: "Undo" }).click();
  await expect(page.getByTestId("decided-here")).toContainText("undone, back in the queue");
  await expect(page.getByTestId(`line-${ids[0]}`)).toBeVisible();
});
