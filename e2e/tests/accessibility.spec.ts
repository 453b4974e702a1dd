import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { JAM, signIn } from "./helpers";

// Every page through axe-core (WCAG 2.1 A/AA rules) in both themes: no serious or critical
// violation. Moderate and minor findings are printed, not failed, so they stay visible.

const PAGES = [
  "/review",
  "/review?status=triggers",
  "/review?layout=list",
  "/chat",
  "/cfbs",
  "/cfbs/CFB-0001",
  "/threads",
  "/threads/demo-ops",
  "/gate",
  "/workflows",
  "/admin/tokens",
  "/admin/users",
  "/admin/audit",
  "/admin/resolve",
  "/admin/routing",
  "/admin/jobs",
  "/glossary",
  "/no-such-page",
];

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  for (const v of results.violations.filter((v) => v.impact !== "serious" && v.impact !== "critical"))
    console.log(`axe ${v.impact} ${v.id} on ${page.url()}: ${v.nodes.length} node(s)`);
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

const SCHEMES = ["light", "dark"] as const;

/** Both themes on the page as loaded: the colours follow prefers-color-scheme (light-dark()). */
async function violationsInBothThemes(page: Page, path: string) {
  const found: string[] = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    found.push(...(await seriousViolations(page)).map((v) => `${path} (${scheme}): ${v}`));
  }
  return found;
}

// One load per page, both themes checked on it: loading every page twice doubled the run.
test("every page has no serious accessibility violation (light and dark)", async ({ page }) => {
  test.setTimeout(150_000);
  await page.goto("/sign-in");
  expect(await violationsInBothThemes(page, "/sign-in")).toEqual([]);
  await signIn(page, JAM.email, JAM.password);
  const proposal = await page.request.get(
    `/api/trpc/proposals.list?input=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`,
  );
  const first = (await proposal.json()).result.data.items[0]?.proposal_id;
  for (const path of [...PAGES, ...(first ? [`/proposals/${first}`] : [])]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // Let queries settle, so what is checked is the page a person sees.
    await page.waitForLoadState("networkidle");
    expect(await violationsInBothThemes(page, path)).toEqual([]);
  }
});
