import { expect, test, type Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { payouts, users } from "@/db/schema";
import { clock } from "@/server/clock";
import { createCredential } from "@/server/services/partners";
import { runSettlement } from "@/server/services/settlements";
import { createPartnerClient } from "@/server/signing/client";
import { createFixtureOrder } from "../../tests/helpers/orders";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "../dashboard/helpers";

// Staff decide about a partner as a whole in the console: suspend it (its key
// gets 403 partner_suspended at once and the partner sees why), change its
// terms (the partner's organisation page shows them), reinstate it, and pay its
// live payout with a transfer reference. Every step is in the audit viewer.

const STAFF = { email: "admin@example.com", password: "admin-password" };

test.afterAll(closeDb);

async function signInStaff(page: Page) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(STAFF.email);
  await page.getByLabel("Password").fill(STAFF.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

test("staff suspend, re-term, reinstate and pay a partner; the partner and its key see each step", async ({ page, browser, baseURL }) => {
  test.slow(); // two browsers and many steps on a 2-core machine
  const partner = await signUpNewPartner(page, { paymentModel: "non_mor" });
  const [user] = await getDb().select().from(users).where(eq(users.email, partner.email));
  const partnerId = user!.partnerId!;
  const key = await createCredential(getDb(), { partnerId, environment: "sandbox", scopes: ["search"] });
  const client = createPartnerClient({ baseUrl: baseURL!, keyId: key.keyId, secret: key.secret });
  const check = () => client.get<{ error?: { code: string } }>("/api/partner/v1/availability?domain=example.com");
  expect((await check()).status).toBe(200);

  // A settled live sale of last month, so a settlement run owes the partner its commission.
  const now = new Date();
  await createFixtureOrder({ partnerId, environment: "live", channel: "checkout", priceCents: 80_000, completedAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 12)) });
  clock.reset();
  await runSettlement(getDb(), { asOf: now, only: { partnerId, environment: "live" } });
  const [payout] = await getDb().select().from(payouts).where(and(eq(payouts.partnerId, partnerId), eq(payouts.environment, "live")));
  expect(payout?.status).toBe("pending");

  const staffContext = await browser.newContext({ baseURL });
  const staff = await staffContext.newPage();
  await signInStaff(staff);
  await staff.goto(`/admin/partners/${partnerId}`);
  await expect(staff.getByRole("heading", { name: partner.company, level: 1 })).toBeVisible();
  await expect(staff.getByTestId("partner-balances")).toContainText("$80.00"); // the commission payout to send

  // Suspend: the dialog names the consequence and needs a reason.
  await staff.getByRole("button", { name: "Suspend partner" }).click();
  const suspend = staff.getByRole("alertdialog", { name: `Suspend ${partner.company}?` });
  await expect(suspend).toContainText("partner_suspended");
  await expect(suspend.getByRole("button", { name: "Suspend" })).toBeDisabled();
  await suspend.getByLabel(/Reason/).fill("Chargeback ratio above 2 % this month");
  await expectAccessible(staff, "suspend confirmation");
  await suspend.getByRole("button", { name: "Suspend" }).click();
  await expect(suspend).toBeHidden();
  await expect(staff.getByText("Suspended", { exact: true })).toBeVisible();
  await expect(staff.getByRole("status").filter({ hasText: "Chargeback ratio above 2 % this month" })).toBeVisible();
  const refused = await check();
  expect(refused.status).toBe(403);
  expect(refused.body.error?.code).toBe("partner_suspended");
  await page.goto("/dashboard/organisation");
  await expect(page.getByTestId("suspended")).toContainText("Chargeback ratio above 2 % this month");

  // New terms: the dialog lists each change before it applies.
  await staff.getByRole("button", { name: "Change terms" }).click();
  const terms = staff.getByRole("alertdialog", { name: `Change ${partner.company}'s terms` });
  await terms.getByLabel("Sale commission (%)").fill("12.5");
  await expect(terms.getByRole("list", { name: "Changes" })).toHaveText("Sale commission: 10% → 12.5%");
  await terms.getByLabel("Brokerage share (%)").fill("101");
  await expect(terms.getByText("0 to 100, two decimals at most")).toBeVisible();
  await expect(terms.getByRole("button", { name: /Apply/ })).toBeDisabled();
  await terms.getByLabel("Brokerage share (%)").fill("20");
  await terms.getByLabel(/Reason/).fill("Volume tier reached in November");
  await expectAccessible(staff, "terms dialog");
  await saveScreenshots(staff, "admin-partner-terms");
  await terms.getByRole("button", { name: "Apply 1 change" }).click();
  await expect(terms).toBeHidden();
  await expect(staff.getByText("12.5%")).toBeVisible();
  await expectAccessible(staff, "suspended partner page");
  await saveScreenshots(staff, "admin-partner-suspended");
  await page.reload();
  await expect(page.getByText("12.5%")).toBeVisible();

  // Reinstate: the same key verifies again.
  await staff.getByRole("button", { name: "Reinstate" }).click();
  const reinstate = staff.getByRole("alertdialog", { name: `Reinstate ${partner.company}?` });
  await reinstate.getByLabel(/Reason/).fill("Chargebacks disputed successfully");
  await reinstate.getByRole("button", { name: "Reinstate" }).click();
  await expect(reinstate).toBeHidden();
  await expect(staff.getByText("Suspended", { exact: true })).toHaveCount(0);
  expect((await check()).status).toBe(200);

  // The live payout waits in the queue until staff record the transfer.
  await staff.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Payouts" }).click();
  await expect(staff.getByRole("heading", { name: "Payouts to send", level: 1 })).toBeVisible();
  const row = staff.locator(`[data-payout-id="${payout!.id}"]`);
  await expect(row).toContainText(partner.company);
  await expectAccessible(staff, "payouts queue");
  await saveScreenshots(staff, "admin-payouts");
  await row.getByRole("button", { name: /^Mark paid/ }).click();
  const mark = staff.getByRole("alertdialog", { name: new RegExp(`sent to ${partner.company}`) });
  await expect(mark.getByRole("button", { name: "Mark paid" })).toBeDisabled();
  await mark.getByLabel(/Transfer reference/).fill("SEPA-E2E-0001");
  await mark.getByRole("button", { name: "Mark paid" }).click();
  await expect(mark).toBeHidden();
  await expect(row).toHaveCount(0); // gone from the queue
  await staff.getByLabel("Status").selectOption("paid");
  await expect(staff).toHaveURL(/status=paid/);
  await expect(staff.locator(`[data-payout-id="${payout!.id}"]`)).toContainText("SEPA-E2E-0001");

  // Every decision is in the audit log, with its reason.
  await staff.goto(`/admin/audit?partnerId=${partnerId}`);
  const entries = staff.getByTestId("audit-entry");
  for (const text of ["partner.suspended", "partner.terms_changed", "partner.reinstated", "payout.paid"]) {
    await expect(entries.filter({ hasText: text })).toHaveCount(1);
  }
  await expect(entries.filter({ hasText: "partner.terms_changed" })).toContainText("Volume tier reached in November");
  await staffContext.close();
});
