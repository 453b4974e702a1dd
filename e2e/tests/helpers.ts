import { type APIRequestContext, expect, type Locator, type Page } from "@playwright/test";

// Shared steps for the browser and HTTP tests: the seed's demo accounts, signing in through the
// real form (or the real endpoint, for HTTP-only tests) and names unique within one run.

export const JAM = { email: "jam@solserver.local", password: "jam-demo-password" } as const;
export const DEMO_USER = { email: "user@solserver.local", password: "user-demo-password" } as const;

/** Signs in through /sign-in and waits until the dashboard shows who is signed in. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
}

/** Signs out with the header's button and waits for the sign-in page. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
}

/** The Origin the server trusts for cookie-authenticated writes (the Playwright baseURL). */
export function origin(baseURL: string | undefined): string {
  if (!baseURL) throw new Error("baseURL is not configured");
  return new URL(baseURL).origin;
}

/**
 * Signs `request` in over HTTP: POST /api/auth/sign-in/email from our own Origin. The context
 * keeps the session cookie for its later calls.
 */
export async function signInRequest(
  request: APIRequestContext,
  baseURL: string | undefined,
  email: string,
  password: string,
): Promise<void> {
  const response = await request.post("/api/auth/sign-in/email", {
    data: { email, password },
    headers: { Origin: origin(baseURL) },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** A suffix that keeps titles and emails distinct between tests sharing one database. */
export function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** Types a message into the dashboard's chat and sends it. */
export async function sendChat(page: Page, message: string): Promise<void> {
  await page.getByLabel(/^Message/).fill(message);
  await page.getByRole("button", { name: "Send" }).click();
}

/** Waits for the chat's turn in flight to end, then opens the review queue. */
export async function openQueue(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Sending…" })).toHaveCount(0);
  await page.goto("/review");
  await expect(page.getByRole("heading", { level: 1, name: "Review queue" })).toBeVisible();
}

/** Sends a chat message and waits until its answer is shown. */
export async function sendChatAndWait(page: Page, message: string): Promise<void> {
  const replies = page.getByTestId("assistant-reply");
  const before = await replies.count();
  await sendChat(page, message);
  await expect(replies).toHaveCount(before + 1);
}

/** The id of the chat's current thread (the chat form carries it once a thread is under way). */
export async function chatThreadId(page: Page): Promise<string> {
  const form = page.locator("form[data-thread-id]");
  await expect(form).not.toHaveAttribute("data-thread-id", "");
  return (await form.getAttribute("data-thread-id")) as string;
}

/** The Umbra beat's checkpoint prompt. */
export const BEAT_PROMPT = /Review \d+ proposals before promoting\?/;

/** Starts the Umbra beat from /workflows; its run id and its card in the inbox. */
export async function startBeat(page: Page): Promise<{ runId: string; card: Locator }> {
  await page.getByRole("button", { name: "Start the Umbra beat" }).click();
  const started = page.getByRole("status").filter({ hasText: /Started WR-\d+/ });
  await expect(started).toContainText("it stopped at its checkpoint");
  const runId = (await started.getByRole("link").textContent()) ?? "";
  const card = page
    .getByRole("region", { name: "Checkpoints inbox" })
    .getByRole("article", { name: BEAT_PROMPT })
    .filter({ hasText: runId });
  await expect(card).toBeVisible();
  return { runId, card };
}

/** A laptop's or a phone's screen, by width. */
export const screenOf = (width: 1280 | 390) => ({ width, height: width === 390 ? 844 : 800 });
