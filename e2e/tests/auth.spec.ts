import { expect, test } from "@playwright/test";
import { DEMO_USER, JAM, openQueue, sendChat, signIn, signOut, unique } from "./helpers";

// Accounts and roles in a real browser: who sees which proposals, what only a Jam editor can do,
// and API tokens from creation to revocation. Every test makes its own names, so they do not
// depend on each other's order.

// Seed proposals of the demo user's threads that no test decides.
const DEMO_PROPOSAL = "Every model release needs a passing breakpoint gate in CI";
const OTHER_DEMO_PROPOSAL = "Use SQLite FTS5 with bm25 ranking for CFB retrieval";

test("an anonymous visitor is sent to sign in and comes back to the page they asked for", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Knowledge" })).toHaveCount(0);

  await page.goto("/admin/audit");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fadmin%2Faudit$/);
  await page.getByLabel("Email").fill(JAM.email);
  await page.getByLabel("Password").fill(JAM.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
});

test("sign-in explains wrong credentials and a lockout", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(`nobody-${unique()}@example.test`);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  const form = page.getByRole("region", { name: "Sign in" });
  await expect(form.getByRole("alert")).toHaveText("Invalid email or password.");
  await expect(page).toHaveURL(/\/sign-in$/);

  // Five real failures would lock this IP out for every later test, so the server's 429 is
  // played back here instead.
  await page.route("**/api/auth/sign-in/email", (route) =>
    route.fulfill({
      status: 429,
      headers: { "Retry-After": "42" },
      contentType: "application/json",
      body: JSON.stringify({ code: "TOO_MANY_REQUESTS", message: "too many failed sign-ins" }),
    }),
  );
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(form.getByRole("alert")).toHaveText("Too many failed sign-ins, retry in 42 s.");
});

test("a new account sees none of the demo user's proposals; the demo user sees their own", async ({ page }) => {
  const email = `reviewer-${unique()}@example.test`;
  const password = "second-user-password";
  await signIn(page, JAM.email, JAM.password);
  await expect(page.getByTestId("role-badge")).toHaveText("jam");
  await page.getByRole("link", { name: "Users" }).click();
  const form = page.getByRole("region", { name: "New account" });
  // An empty form says every problem at once, each field marked.
  await form.getByRole("button", { name: "Create account" }).click();
  await expect(form.getByRole("alert").getByRole("listitem")).toHaveText([
    "Email must be an email address.",
    "Name must not be empty.",
    "Password must be at least 10 characters.",
  ]);
  await expect(form.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Name", { exact: true })).toHaveAccessibleDescription("Name must not be empty.");
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Name", { exact: true }).fill("Second reviewer");
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByLabel("Role", { exact: true }).selectOption("user");
  await form.getByRole("button", { name: "Create account" }).click();
  await expect(form.getByRole("status")).toContainText(`Created ${email} (user)`);
  await expect(page.getByTestId("user-list").getByRole("row").filter({ hasText: email })).toBeVisible();
  await signOut(page);

  await signIn(page, email, password);
  await expect(page.getByTestId("role-badge")).toHaveText("user");
  await expect(page.getByRole("link", { name: "Tokens" })).toHaveCount(0);
  // A user lands on the chat; their queue is a click away.
  await expect(page).toHaveURL(/\/chat$/);
  await page.getByRole("link", { name: /^Review/ }).click();
  const queue = page.getByTestId("proposal-queue");
  await expect(page.getByRole("button", { name: /^pending/ })).toHaveText("pending (0)");
  await expect(page.getByText("Nothing to review.")).toBeVisible();
  await expect(queue.getByRole("article")).toHaveCount(0);
  await page.getByRole("link", { name: "Threads" }).click();
  await expect(page.getByText("No threads yet.")).toBeVisible();
  // Someone else's thread and the Jam pages answer "no access", and say so.
  await page.goto("/threads/demo-ops");
  await expect(page.getByRole("heading", { name: "You don’t have access" })).toBeVisible();
  await expect(page.getByText("Every model release")).toHaveCount(0);
  await page.goto("/admin/tokens");
  await expect(page.getByRole("heading", { name: "You don’t have access" })).toBeVisible();
  await signOut(page);

  await signIn(page, DEMO_USER.email, DEMO_USER.password);
  await page.goto("/review");
  const own = page.getByTestId("proposal-queue");
  await expect(own.getByRole("article").filter({ hasText: DEMO_PROPOSAL })).toBeVisible();
  await expect(own.getByRole("article").filter({ hasText: OTHER_DEMO_PROPOSAL })).toBeVisible();
  // Users approve or reject their own proposals; editing first is for Jam editors.
  await expect(own.getByRole("button", { name: "Edit & approve" })).toHaveCount(0);
  await expect(own.getByRole("button", { name: "Approve" }).first()).toBeVisible();
});

test("a Jam editor sees every pending proposal and edits one before approving it", async ({ page }) => {
  // Mostly new words, so the offline model proposes a new CFB (not an update of an earlier run's).
  const word = `k${unique().slice(-7)}`;
  const place = `f${unique().slice(-7)}`;
  const keeper = `o${unique().slice(-7)}`;
  await signIn(page, JAM.email, JAM.password);
  // A Jam editor lands on the review queue.
  await expect(page).toHaveURL(/\/review$/);
  const queue = page.getByTestId("proposal-queue");
  // The demo user's proposals are in the Jam editor's queue too.
  await expect(queue.getByRole("article").filter({ hasText: DEMO_PROPOSAL })).toBeVisible();

  await page.goto("/chat");
  await sendChat(page, `We decided to name the ${word} archive after ${place} ${keeper}.`);
  const title = `Name the ${word} archive after ${place} ${keeper}`;
  await expect(page.getByTestId("assistant-reply").last()).toContainText(title);
  await openQueue(page);
  const card = queue.getByRole("article").filter({ hasText: title });
  await expect(card).toBeVisible();
  const proposalId = ((await card.getAttribute("data-testid")) ?? "").replace(/^proposal-/, "");
  expect(proposalId).toMatch(/^UP-\d+$/);

  await card.getByRole("button", { name: "Edit & approve" }).click();
  const editor = card.getByRole("form", { name: `Edit proposal ${proposalId}` });
  await expect(editor.getByLabel("Title")).toHaveValue(title);
  const edited = `The ${word} archive is named after ${place}`;
  await editor.getByLabel("Title").fill(edited);
  await editor.getByLabel("Tags to add").fill("archive, naming");
  await editor.getByRole("button", { name: "Save & approve" }).click();
  await expect(queue.getByRole("article").filter({ hasText: title })).toHaveCount(0);

  await page.getByRole("link", { name: "Knowledge" }).click();
  await page.getByLabel("Filter CFBs").fill(word);
  const list = page.getByTestId("cfb-list");
  const item = list.getByRole("listitem").filter({ hasText: edited });
  await expect(item).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await item.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(edited);
  const tags = page.locator("dl.meta dt", { hasText: "Tags" }).locator("+ dd");
  await expect(tags).toContainText("archive");
  await expect(tags).toContainText("naming");

  // The audit log names the editor and the decision.
  await page.getByRole("link", { name: "Audit" }).click();
  const row = page
    .getByTestId("audit-list")
    .getByRole("row")
    .filter({ hasText: "edited and approved a proposal" })
    .filter({ hasText: proposalId });
  await expect(row).toContainText(JAM.email);
  await expect(row.getByRole("link", { name: proposalId })).toHaveAttribute("href", `/proposals/${proposalId}`);
  // The log exports as CSV, the same rows in words a spreadsheet reads.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("solserver-audit.csv");
  const csv = await (await file.createReadStream()).toArray();
  const text = Buffer.concat(csv).toString("utf8");
  expect(text.split("\r\n")[0]).toBe("when,who,via,action,target type,target,details");
  expect(text).toContain(`proposal.edit_then_approve,proposal,${proposalId}`);
});

test("a Jam editor sees every thread with its owner, and a thread's messages and trace", async ({ page }) => {
  await signIn(page, JAM.email, JAM.password);
  await page.getByRole("link", { name: "Threads" }).click();
  await expect(page.getByRole("heading", { name: "All threads" })).toBeVisible();
  const item = page.getByTestId("thread-list").locator(`li[data-thread-id="demo-ops"]`);
  await expect(item).toContainText(DEMO_USER.email);
  await item.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/threads\/demo-ops$/);
  await expect(page.getByTestId("thread-messages")).toContainText("every model release needs a passing breakpoint");
  const turn = page.getByTestId("turn").last();
  await expect(turn.locator('li[data-phase="retrieval"]')).toBeVisible();
  await expect(turn.getByText("Turn received", { exact: true })).toBeVisible();
});

test("an API token is shown once, works as Bearer, and stops working when revoked", async ({ page, request }) => {
  const name = `e2e importer ${unique()}`;
  await signIn(page, JAM.email, JAM.password);
  await page.getByRole("link", { name: "Tokens" }).click();
  await page.getByLabel("Account").selectOption({ label: `${DEMO_USER.email} (user)` });
  await page.getByLabel("Token name").fill(name);
  await page.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByRole("region", { name: "New token" });
  await expect(shown).toContainText("it will not be shown again");
  const token = await shown.getByTestId("new-token").inputValue();
  expect(token).toMatch(/^sol_[A-Za-z0-9_-]{20,}$/);

  const turn = (requestId: string) =>
    request.post("/chat/respond", {
      headers: { Authorization: `Bearer ${token}` },
      data: { request_id: requestId, message: "What is the monthly hosting cost?" },
    });
  const ok = await turn(`e2e-token-${unique()}`);
  expect(ok.status(), await ok.text()).toBe(200);

  // Shown once: after a reload only the prefix is left.
  await page.reload();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  const row = page.getByTestId("token-list").getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(DEMO_USER.email);
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row).not.toContainText(token);
  await expect(row).toContainText("active");

  // Revoking asks first: Cancel keeps the token, confirming revokes it.
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Revoke "${name}"?` });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toContainText("active");
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await dialog.getByRole("button", { name: "Revoke the token" }).click();
  await expect(row).toContainText("revoked");
  const refused = await turn(`e2e-token-${unique()}`);
  expect(refused.status()).toBe(401);
});

test("a Jam editor changes a role, disables, resets and deletes an account, each confirmed", async ({
  page,
  browser,
}) => {
  const email = `managed-${unique()}@example.test`;
  const password = "managed-user-password";
  await signIn(page, JAM.email, JAM.password);
  await page.goto("/admin/users");
  const form = page.getByRole("region", { name: "New account" });
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Name", { exact: true }).fill("Managed person");
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: "Create account" }).click();
  const row = page.getByTestId("user-list").getByRole("row").filter({ hasText: email });
  await expect(row).toBeVisible();

  // A role change asks first.
  await row.getByLabel(`Role of ${email}`).selectOption("jam");
  await page
    .getByRole("dialog", { name: `Make ${email} a Jam editor?` })
    .getByRole("button", { name: "Cancel" })
    .click();
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("user");

  // Disabled, the account cannot sign in, and says why.
  await row.getByRole("button", { name: "Disable" }).click();
  await page
    .getByRole("dialog", { name: `Disable ${email}?` })
    .getByRole("button", { name: "Disable" })
    .click();
  await expect(row).toContainText("disabled");
  const other = await browser.newContext();
  const them = await other.newPage();
  await them.goto("/sign-in");
  await them.getByLabel("Email").fill(email);
  await them.getByLabel("Password").fill(password);
  await them.getByRole("button", { name: "Sign in" }).click();
  await expect(them.locator("p[role=alert]")).toHaveText("This account is disabled. Ask a Jam editor to enable it.");
  await row.getByRole("button", { name: "Enable" }).click();
  await page
    .getByRole("dialog", { name: `Enable ${email}?` })
    .getByRole("button", { name: "Enable" })
    .click();
  await expect(row).not.toContainText("disabled");

  // A reset password is shown once and works.
  await row.getByRole("button", { name: "Reset password" }).click();
  await page
    .getByRole("dialog", { name: `Reset the password of ${email}?` })
    .getByRole("button", { name: "Reset the password" })
    .click();
  const fresh = (await row.getByTestId("new-password").locator("code").textContent()) ?? "";
  expect(fresh).toMatch(/^[\w-]{24}$/);
  await signIn(them, email, fresh);
  await other.close();

  // Deleting asks for the email.
  await row.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: `Delete ${email}?` });
  await dialog.getByLabel(`Type ${email} to delete it`).fill("wrong@example.test");
  await dialog.getByRole("button", { name: "Delete the account" }).click();
  await expect(dialog.getByRole("alert")).toContainText("confirm_email");
  await dialog.getByLabel(`Type ${email} to delete it`).fill(email);
  await dialog.getByRole("button", { name: "Delete the account" }).click();
  await expect(page.getByTestId("user-list").getByRole("row").filter({ hasText: email })).toHaveCount(0);
});
