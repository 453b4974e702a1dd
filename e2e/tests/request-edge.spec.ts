// The request edge over real HTTP (issue 20): every dashboard page loads with its CSP and no
// violation, the security headers are on pages and API answers, and malformed requests (a bad
// percent-escape, TRACE, an over-long URL or header block) get JSON errors, not a bare 500 / 431.
import { expect, type Page, test } from "@playwright/test";
import { JAM, signIn } from "./helpers";

const PAGES = [
  "/",
  "/threads",
  "/cfbs",
  "/gate",
  "/workflows",
  "/admin",
  "/admin/users",
  "/admin/tokens",
  "/admin/audit",
];

/** Collects CSP violations (the DOM event and Chromium's console report) while a page is used. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  await page.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || "inline"} on ${location.pathname}`,
      );
    });
  });
  return violations;
}

test("every dashboard page loads with a nonce CSP and no violation", async ({ page }) => {
  const violations = await watchCsp(page);
  await signIn(page, JAM.email, JAM.password);
  for (const path of PAGES) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    const headers = response?.headers() ?? {};
    expect(headers["content-security-policy"], path).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(headers["x-frame-options"], path).toBe("DENY");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("same-origin");
    // The page hydrated (its scripts ran under the CSP): the signed-in navigation is there.
    await expect(page.getByTestId("signed-in-as")).toHaveText(JAM.email);
    await page.waitForLoadState("networkidle");
  }
  // A proposal, a thread and a CFB page from the lists, and the 404 page.
  await page.goto("/cfbs");
  await page.getByTestId("cfb-list").getByRole("link").first().click();
  await page.waitForLoadState("networkidle");
  await page.goto("/no-such-page");
  await page.waitForLoadState("networkidle");
  expect(violations).toEqual([]);
});

test("API answers are no-store with a CSP that allows nothing", async ({ request }) => {
  const health = await request.get("/api/trpc/system.health");
  expect(health.status()).toBe(200);
  expect(health.headers()["cache-control"]).toBe("no-store");
  expect(health.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  const rest = await request.get("/umbra/proposals");
  expect(rest.status()).toBe(401);
  expect(rest.headers()["cache-control"]).toBe("no-store");
  const auth = await request.get("/api/auth/get-session");
  expect(auth.headers()["cache-control"]).toBe("no-store");
});

test("malformed requests get JSON errors", async ({ request }) => {
  const badPath = await request.get("/threads/%E0%A4%A/memento");
  expect(badPath.status()).toBe(400);
  expect(await badPath.json()).toMatchObject({ error: { code: "BAD_INPUT", field: "path" } });

  const trace = await request.fetch("/umbra/proposals", { method: "TRACE" });
  expect(trace.status()).toBe(405);
  expect(trace.headers().allow).toBe("GET, HEAD, OPTIONS");
  expect(await trace.json()).toMatchObject({ error: { code: "METHOD_NOT_ALLOWED" } });

  const remove = await request.delete("/cfbs");
  expect(remove.status()).toBe(405);
  expect(remove.headers().allow).toBe("GET, HEAD");

  const longUrl = await request.get(`/api/trpc/system.health?pad=${"a".repeat(20_000)}`);
  expect(longUrl.status()).toBe(414);
  expect(await longUrl.json()).toMatchObject({ error: { data: { httpStatus: 414 } } });

  const bigHeaders = await request.get("/umbra/proposals", { headers: { "x-pad": "b".repeat(20_000) } });
  expect(bigHeaders.status()).toBe(431);
  expect(await bigHeaders.json()).toMatchObject({ error: { code: "HEADERS_TOO_LARGE", field: "headers" } });
});
