import { expect, test } from "@playwright/test";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { partners, referralClicks, users } from "@/db/schema";
import { createBrokerageCase } from "@/server/services/brokerage";
import { createLink } from "@/server/services/referrals";
import { setSiteProbe } from "@/server/services/site-probe";
import { createFixtureOrder } from "../../tests/helpers/orders";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "./helpers";
import { Receiver } from "./receiver";

// Sandbox simulators from the browser: a new partner's test order is moved
// through transfer and settlement, a brokerage case completed and a referral
// click simulated, each by a button, and the webhooks each move sends arrive
// at a receiver on 127.0.0.1 signed as usual. Live is refused.

const receiver = new Receiver();
let port = 0;

test.beforeAll(async () => {
  port = await receiver.start();
  setSiteProbe(async () => ({ active: false, detail: "e2e: no site" }));
});

test.afterAll(async () => {
  setSiteProbe();
  await receiver.stop();
  await closeDb();
});

test("each simulator runs the real move and its webhook arrives", async ({ page }) => {
  const partner = await signUpNewPartner(page, { paymentModel: "mor" });
  const [user] = await getDb().select({ partnerId: users.partnerId }).from(users).where(eq(users.email, partner.email));
  const partnerId = user!.partnerId!;

  // The endpoint, through the Webhooks page.
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Endpoint URL").fill(`http://127.0.0.1:${port}/hooks`);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("endpoint-status")).toHaveText("Active");

  // Sandbox data to move: an order the partner recorded, a case, an affiliate link.
  const order = await createFixtureOrder({ partnerId, priceCents: 4_900 });
  const { row: brokerageCase } = await createBrokerageCase(getDb(), {
    partnerId,
    environment: "sandbox",
    domain: `sim-${Date.now().toString(36)}.com`,
    tier: "managed",
    buyerEmail: "buyer@sandbox.example",
    budgetCents: 300_000,
    currency: "USD",
    actor: { type: "partner" },
  });
  await getDb().update(partners).set({ isAffiliate: true }).where(eq(partners.id, partnerId));
  const link = await createLink(getDb(), { partnerId, environment: "sandbox", type: "generic" });

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Simulators" }).click();
  await expect(page.getByRole("heading", { name: "Sandbox simulators", level: 1 })).toBeVisible();
  await expectAccessible(page, "sandbox simulators");
  await saveScreenshots(page, "sandbox-simulators");

  const orders = page.getByTestId("simulate-order");
  await orders.getByRole("button", { name: "Start transfer" }).click();
  expect((await receiver.next("order.transfer_started")).body).toContain(order.id);
  await orders.getByRole("button", { name: "Complete transfer" }).click();
  expect((await receiver.next("order.transfer_completed")).body).toContain(order.id);
  await orders.getByRole("button", { name: /^Settle/ }).click();
  expect((await receiver.next("order.settled")).body).toContain(order.id);
  await expect(orders.getByRole("button", { name: "No further step" })).toBeDisabled();

  const cases = page.getByTestId("simulate-brokerage");
  await cases.getByLabel(/Final price/).fill("2750");
  await cases.getByRole("button", { name: "Complete with a deal" }).click();
  const completed = await receiver.next("brokerage.case_completed");
  expect(completed.body).toContain(brokerageCase.id);
  expect(completed.body).toContain("275000");

  const referrals = page.getByTestId("simulate-referral");
  await referrals.getByRole("button", { name: "Simulate a click", exact: true }).click();
  await expect(page.getByText("Click counted", { exact: true })).toBeVisible();
  expect((await getDb().select().from(referralClicks).where(eq(referralClicks.linkId, link.id))).length).toBe(1);

  const settlement = page.getByTestId("simulate-settlement");
  await settlement.getByRole("button", { name: "Run sandbox settlement now" }).click();
  await expectAccessible(page, "settlement confirmation");
  await page.getByRole("alertdialog").getByRole("button", { name: "Run settlement" }).click();
  await expect(settlement.getByTestId("settlement-result")).toContainText("Nothing to settle");

  // Live: refused, with the reason.
  await page.getByTestId("environment-switch").getByRole("button", { name: "live" }).click();
  await expect(page.getByText("Simulators work in sandbox only")).toBeVisible();
  await page.getByTestId("environment-switch").getByRole("button", { name: "sandbox" }).click();
});
