import { expect, test } from "@playwright/test";
import { createPartnerClient } from "@/server/signing/client";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "./helpers";

// From sign-up to a first signed call: the new partner lands on the overview,
// takes the offered sandbox key, calls the API with it, and the checklist ticks
// itself from the data. The environment switch scopes the whole dashboard.

test("partner sign-up page is accessible and explains itself", async ({ page }) => {
  await page.goto("/partners/sign-up");
  await expect(page.getByRole("heading", { name: "Start selling domains" })).toBeVisible();
  await expectAccessible(page, "partner sign-up");
  await saveScreenshots(page, "partner-sign-up");
  // A bad password is refused with a clear message and nothing is created.
  await page.getByLabel("Company").fill("Too Short Inc");
  await page.getByLabel("Work email").fill(`short-${Date.now()}@partner.example`);
  await page.getByLabel("Password").fill("short");
  await page.getByLabel("Password").evaluate((input: HTMLInputElement) => input.removeAttribute("minlength"));
  await page.getByRole("button", { name: "Create partner account" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "at least 8 characters" })).toBeVisible();
  await expect(page).toHaveURL(/\/partners\/sign-up/);
});

test("sign up, take the offered sandbox key, call the API, watch the checklist tick", async ({ page, baseURL }) => {
  await signUpNewPartner(page);
  const checklist = page.getByTestId("onboarding");
  await expect(checklist).toBeVisible();
  await expect(checklist.locator('[data-step="key_created"]')).toHaveAttribute("data-done", "false");
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
  await expectAccessible(page, "overview (new partner)");
  await saveScreenshots(page, "overview-new-partner");

  await page.getByTestId("first-key-offer").getByRole("button", { name: "Create sandbox key" }).click();
  const dialog = page.getByRole("dialog", { name: "Your sandbox key" });
  await expect(dialog).toBeVisible();
  const keyId = (await dialog.getByTestId("new-key-id").textContent())!.trim();
  const secret = (await dialog.getByTestId("new-key-secret").textContent())!.trim();
  expect(keyId).toMatch(/^pk_sandbox_/);
  expect(secret).toMatch(/^sk_sandbox_/);
  await expect(dialog.getByRole("button", { name: "Copy secret" })).toBeVisible();
  await expectAccessible(page, "first key dialog");
  await saveScreenshots(page, "overview-first-key");
  await dialog.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("first-key-offer")).toBeHidden();

  const client = createPartnerClient({ baseUrl: baseURL!, keyId, secret });
  const search = await client.get("/api/partner/v1/domains/search?q=pizza");
  expect(search.status).toBe(200);

  // The checklist reads the request log on each load. On a loaded machine the reloaded page can take
  // over a second to render (a CI run saw "element(s) not found" with the step already done), so each
  // attempt waits for the checklist itself, and the attempts may take a while in all.
  await expect(async () => {
    await page.reload();
    await expect(checklist.locator('[data-step="signed_call"]')).toHaveAttribute("data-done", "true", { timeout: 5_000 });
  }).toPass({ timeout: 45_000 });
  await expect(checklist.locator('[data-step="key_created"]')).toHaveAttribute("data-done", "true");
  await saveScreenshots(page, "overview-checklist-progress");

  // Changes are POST-only: a mutation sent as GET (a link, an <img>) changes nothing.
  const viaGet = await page.request.get(`/api/trpc/keys.revoke?input=${encodeURIComponent(JSON.stringify({ keyId }))}`);
  expect(viaGet.status()).toBe(405);
  expect((await client.get("/api/partner/v1/domains/search?q=pizza")).status).toBe(200);
  // Signed out, the dashboard's API answers 401.
  const anonymous = await page.context().browser()!.newContext();
  expect((await anonymous.request.get(`${baseURL}/api/trpc/keys.list`)).status()).toBe(401);
  await anonymous.close();

  // Live is another world: no keys there yet, and no sandbox banner.
  await page.getByTestId("environment-switch").getByRole("button", { name: "live" }).click();
  await expect(page.getByTestId("sandbox-banner")).toBeHidden();
  await expect(page.getByTestId("environment-switch").getByRole("button", { name: "live" })).toHaveAttribute("aria-pressed", "true");
  await page.getByTestId("environment-switch").getByRole("button", { name: "sandbox" }).click();
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
});
