import { expect, test, type Page } from "@playwright/test";
import { createPartnerClient } from "@/server/signing/client";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "./helpers";

// The API keys page in Chromium, each step checked against the live signing
// gate with the project's own client: a key created with chosen scopes works;
// rolled with a 1 h grace, old and new secrets both verify; rolled with no
// grace, only the new one; restricted to a range, a request from elsewhere is
// 403 ip_not_allowed (the server trusts one proxy hop here: X-Forwarded-For
// stands in for the caller's address); revoked, it is 401.

const SEARCH = "/api/partner/v1/domains/search?q=pizza";

async function readSecret(page: Page, title: RegExp | string) {
  const dialog = page.getByRole("dialog", { name: title });
  await expect(dialog).toBeVisible();
  const keyId = (await dialog.getByTestId("new-key-id").textContent())!.trim();
  const secret = (await dialog.getByTestId("new-key-secret").textContent())!.trim();
  return { dialog, keyId, secret };
}

test("create, call, roll with and without a grace, restrict by address, revoke", async ({ page, baseURL }) => {
  await signUpNewPartner(page);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(page.getByText("No sandbox keys yet")).toBeVisible();
  await expectAccessible(page, "API keys, empty");
  await saveScreenshots(page, "keys-empty");

  // --- create: a name is required, then only the scopes chosen ---------------------
  await page.getByRole("button", { name: "Create sandbox key" }).first().click();
  const form = page.getByRole("dialog", { name: "Create a sandbox key" });
  await expectAccessible(page, "create key dialog");
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(form.getByText("Name the key (where it runs)")).toBeVisible();
  await form.getByLabel("Name").fill("Search worker");
  for (const scope of ["embed", "buy", "broker", "refer", "report", "webhook"]) await form.getByRole("checkbox", { name: scope }).click();
  await form.getByLabel(/Allowed addresses/).fill("not-an-address");
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(form.getByLabel(/Allowed addresses/)).toHaveAttribute("aria-invalid", "true");
  await form.getByLabel(/Allowed addresses/).fill("");
  await form.getByRole("button", { name: "Create key" }).click();

  const created = await readSecret(page, "Your new sandbox key");
  expect(created.keyId).toMatch(/^pk_sandbox_/);
  expect(created.secret).toMatch(/^sk_sandbox_/);
  await created.dialog.getByText("Try it: a signed request").click();
  await expect(created.dialog.getByTestId("curl-example")).toContainText(created.keyId);
  await expect(created.dialog.getByRole("button", { name: "Copy secret" })).toBeVisible();
  await expectAccessible(page, "new key secret dialog");
  await saveScreenshots(page, "keys-created-secret");
  await created.dialog.getByRole("button", { name: "I have stored it" }).click();

  const original = createPartnerClient({ baseUrl: baseURL!, keyId: created.keyId, secret: created.secret });
  expect((await original.get(SEARCH)).status).toBe(200);
  // Only the chosen scope: buying is refused.
  const quote = await original.post("/api/partner/v1/quotes", { domain: "example-not-listed.com" });
  expect(quote.status).toBe(403);

  const row = page.locator(`[data-key-id="${created.keyId}"]`);
  await expect(row).toContainText("Search worker");
  await expect(async () => {
    await page.reload();
    // Each attempt waits for the reloaded row to render: on a loaded machine that can take over a second.
    await expect(row.getByTestId("requests-24h")).toHaveText(/^[1-9]/, { timeout: 5_000 });
  }).toPass({ timeout: 45_000 });
  await expect(row.getByTestId("last-used")).not.toContainText("Never");
  await expectAccessible(page, "API keys, one key");
  await saveScreenshots(page, "keys-list");

  // --- roll with a 1 h grace: both secrets verify ------------------------------------
  await row.getByRole("button", { name: "Manage Search worker" }).click();
  await page.getByRole("menuitem", { name: "Roll secret…" }).click();
  const rollDialog = page.getByRole("dialog", { name: "Roll the secret of Search worker" });
  await rollDialog.getByLabel("Keep the old secret valid for").selectOption("1h");
  await expectAccessible(page, "roll dialog");
  await rollDialog.getByRole("button", { name: "Roll secret" }).click();
  const rolled = await readSecret(page, "Your new secret");
  expect(rolled.keyId).toBe(created.keyId);
  expect(rolled.secret).not.toBe(created.secret);
  await expect(rolled.dialog).toContainText("The old secret keeps working until");
  await rolled.dialog.getByRole("button", { name: "I have stored it" }).click();
  await expect(row.getByTestId("grace-badge")).toBeVisible();
  const second = createPartnerClient({ baseUrl: baseURL!, keyId: created.keyId, secret: rolled.secret });
  expect((await original.get(SEARCH)).status).toBe(200);
  expect((await second.get(SEARCH)).status).toBe(200);

  // --- roll again with no grace: only the newest verifies ----------------------------
  await row.getByRole("button", { name: "Manage Search worker" }).click();
  await page.getByRole("menuitem", { name: "Roll secret…" }).click();
  const again = page.getByRole("dialog", { name: "Roll the secret of Search worker" });
  await expect(again.getByText("Rolling again ends the current grace")).toBeVisible();
  await again.getByLabel("Keep the old secret valid for").selectOption("none");
  await again.getByRole("button", { name: "Roll secret" }).click();
  const third = await readSecret(page, "Your new secret");
  await expect(third.dialog).toContainText("The old secret no longer works.");
  await third.dialog.getByRole("button", { name: "I have stored it" }).click();
  await expect(row.getByTestId("grace-badge")).toBeHidden();
  const newest = createPartnerClient({ baseUrl: baseURL!, keyId: created.keyId, secret: third.secret });
  expect((await original.get(SEARCH)).status).toBe(401);
  expect((await second.get(SEARCH)).status).toBe(401);
  expect((await newest.get(SEARCH)).status).toBe(200);

  // --- allowed addresses: refused from elsewhere, accepted from inside ---------------
  await row.getByRole("button", { name: "Manage Search worker" }).click();
  await page.getByRole("menuitem", { name: "Edit allowed addresses…" }).click();
  const allow = page.getByRole("dialog", { name: /Allowed addresses of Search worker/ });
  await allow.getByLabel(/Allowed addresses/).fill("203.0.113.0/24\n2001:db8::/48");
  await allow.getByRole("button", { name: "Save" }).click();
  await expect(allow).toBeHidden();
  await expect(row.getByTestId("allow-list")).toHaveText("203.0.113.0/24, 2001:db8::/48");
  const from = (ip: string) => newest.request("GET", SEARCH, undefined, { headers: { "x-forwarded-for": ip } });
  const outside = await from("198.51.100.9");
  expect(outside.status).toBe(403);
  expect((outside.body as { error: { code: string } }).error.code).toBe("ip_not_allowed");
  expect((await from("203.0.113.77")).status).toBe(200);
  expect((await from("2001:db8::1")).status).toBe(200);

  // --- revoke: asks first, then 401 at once -------------------------------------------
  await row.getByRole("button", { name: "Revoke Search worker" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Revoke Search worker?" });
  await expectAccessible(page, "revoke confirmation");
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText("No sandbox keys yet")).toBeVisible();
  expect((await from("203.0.113.77")).status).toBe(401);
  await page.getByLabel("Show revoked keys").click();
  await expect(page).toHaveURL(/revoked=1/);
  await expect(row).toContainText("Revoked");
});

test("live keys wait for production access", async ({ page }) => {
  await signUpNewPartner(page);
  await page.goto("/dashboard/keys");
  await page.getByTestId("environment-switch").getByRole("button", { name: "live" }).click();
  await expect(page.getByText("Live keys need production access")).toBeVisible();
  await expect(page.getByRole("button", { name: /Create live key/ })).toHaveCount(0);
  await expectAccessible(page, "API keys, live without access");
  await page.getByTestId("environment-switch").getByRole("button", { name: "sandbox" }).click();
});
