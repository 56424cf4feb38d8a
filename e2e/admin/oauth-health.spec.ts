import { expect, test } from "@playwright/test";
import { closeDb, getDb } from "@/db/client";
import { randomBase62 } from "@/server/ids";
import { approveAuthorization, validateAuthorization } from "@/server/oauth/authorize";
import { authenticateBearer, exchangeCode, s256 } from "@/server/oauth/tokens";
import { createUser } from "@/server/services/partners";
import { expectAccessible, saveScreenshots } from "../dashboard/helpers";

// Staff find an agent's OAuth client registered through the real endpoint, see
// who granted it access, revoke it with a reason (its token is refused at once)
// and find the revocation in the audit log; the health page shows its figures.

const STAFF = { email: "admin@example.com", password: "admin-password" };
const REDIRECT = "http://127.0.0.1/callback";

test.afterAll(async () => {
  await closeDb();
});

test("staff revoke an OAuth client with a reason, and read the health page", async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const name = `E2E Agent ${tag}`;
  const registered = await request.post("/api/oauth/register", {
    data: { client_name: name, redirect_uris: [REDIRECT] },
    headers: { "x-forwarded-for": `10.77.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}` },
  });
  expect(registered.status()).toBe(201);
  const clientId = ((await registered.json()) as { client_id: string }).client_id;

  // A user's consent (the consent page's service; e2e/oauth covers the page) and the code redeemed.
  const user = await createUser(getDb(), { email: `agent-user-${tag}@example.com`, password: "correct horse battery" });
  const verifier = randomBase62(64);
  const outcome = await validateAuthorization(getDb(), {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: s256(verifier),
    code_challenge_method: "S256",
  });
  if (outcome.kind !== "consent") throw new Error(JSON.stringify(outcome));
  const code = new URL(await approveAuthorization(getDb(), outcome.request, user.userId)).searchParams.get("code")!;
  const tokens = await exchangeCode(getDb(), { clientId, code, redirectUri: REDIRECT, codeVerifier: verifier });
  expect(await authenticateBearer(getDb(), `Bearer ${tokens.access_token}`)).toBeTruthy();

  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(STAFF.email);
  await page.getByLabel("Password").fill(STAFF.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);

  await page.getByRole("link", { name: "OAuth", exact: true }).click();
  await expect(page.getByRole("heading", { name: "OAuth clients", level: 1 })).toBeVisible();
  await page.getByLabel("Name, client_id or redirect URI").fill(tag);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`q=${tag}`));
  const row = page.locator(`[data-testid="staff-oauth-client"][data-client-id="${clientId}"]`);
  await expect(row).toContainText(name);
  await expect(row).toContainText(clientId);
  await expect(row.getByTestId("active-grants")).toHaveText("1");
  await expectAccessible(page, "admin OAuth clients");
  await saveScreenshots(page, "admin-oauth");

  await row.getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByTestId("oauth-grant")).toHaveAttribute("data-email", user.email);
  await expect(page.getByTestId("client-status")).toHaveText("Active");
  await expectAccessible(page, "admin OAuth client");
  await saveScreenshots(page, "admin-oauth-client");

  await page.getByRole("button", { name: "Revoke client" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("every access and refresh token it holds is refused");
  await expect(dialog.getByRole("button", { name: "Revoke client" })).toBeDisabled();
  await dialog.getByLabel(/Reason/).fill("Agent reported for scraping prices.");
  await expectAccessible(page, "revoke client confirmation");
  await dialog.getByRole("button", { name: "Revoke client" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("client-status")).toHaveText("Revoked");
  await expect(page.getByRole("button", { name: "Revoke client" })).toHaveCount(0);
  await expect(authenticateBearer(getDb(), `Bearer ${tokens.access_token}`)).rejects.toMatchObject({ code: "invalid_token" });

  await page.goto(`/admin/oauth?q=${tag}&status=revoked`);
  await expect(row).toHaveAttribute("data-status", "revoked");

  await page.goto(`/admin/audit?targetId=${clientId}`);
  const entry = page.getByTestId("audit-entry");
  await expect(entry).toHaveCount(1);
  await expect(entry).toHaveAttribute("data-action", "oauth.client_revoked");
  await expect(entry).toContainText("Agent reported for scraping prices.");

  await page.getByRole("link", { name: "Health", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Health", level: 1 })).toBeVisible();
  await expect(page.getByTestId("stat-queue-depth")).toContainText(/\d/);
  await expect(page.getByTestId("stat-queue-lag")).toContainText(/\d+ (s|min|h|d)/);
  await expect(page.getByTestId("stat-database")).toContainText(/\d+(\.\d)? (kB|MB|GB)/);
  await expect(page.getByTestId("largest-table").first()).toBeVisible();
  await expect(page.getByTestId("health-updated")).toContainText(/Updated \d+ s ago/);
  await expectAccessible(page, "admin health");
  await saveScreenshots(page, "admin-health");
});
