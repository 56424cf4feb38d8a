import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { partners, users } from "@/db/schema";
import { addDomain } from "@/server/services/inventory";
import { transitionOrder } from "@/server/services/order-states";
import { runSettlement } from "@/server/services/settlements";
import { createPartnerClient, type PartnerClient } from "@/server/signing/client";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "./helpers";

// The money half of the dashboard in Chromium. A merchant-of-record partner
// signs up, takes the offered sandbox key and sells over the signed API: two
// MoR sales and a refunded one, a paid hosted checkout link and an unpaid one,
// a storefront sale through its referral link; staff transfer two orders and
// settle the month. The home's figures then equal GET /transactions and GET
// /analytics, Finance's charts and tables show the same sales, and each tab's
// CSV link carries its filters.

const tag = `e2efin${Date.now().toString(36)}`;
const PRICES = { a: 123_400, b: 50_000, refunded: 30_000, checkout: 89_900, unpaid: 64_500, referred: 45_000 } as const;
const names = Object.fromEntries(Object.keys(PRICES).map((key) => [key, `${tag}-${key}.com`])) as Record<keyof typeof PRICES, string>;
const money = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;

interface Listed {
  data: { id: string; status: string }[];
}

let receiver: Server;
let hookUrl: string;
let delivered = 0;

test.beforeAll(async () => {
  const db = getDb();
  for (const [key, name] of Object.entries(names)) await addDomain(db, { environment: "sandbox", name, priceCents: PRICES[key as keyof typeof PRICES] });
  await closeDb();
  receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      delivered += 1;
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

/** Staff enable the affiliate program for the partner behind `email` (the admin console's job). */
async function enableAffiliate(email: string): Promise<void> {
  const db = getDb();
  const [user] = await db.select({ partnerId: users.partnerId }).from(users).where(eq(users.email, email));
  if (!user?.partnerId) throw new Error(`no partner user ${email}`);
  await db.update(partners).set({ isAffiliate: true }).where(eq(partners.id, user.partnerId));
  await closeDb();
}

/** Staff push the domains of these orders to their buyers, then close the month early. */
async function transferAndSettle(orderIds: string[]): Promise<void> {
  const db = getDb();
  const staff = { type: "admin" as const, id: "e2e-finance" };
  for (const orderId of orderIds) {
    await transitionOrder(db, { orderId, action: "start_transfer", actor: staff });
    await transitionOrder(db, { orderId, action: "complete_transfer", actor: staff });
  }
  const now = new Date();
  await runSettlement(db, { asOf: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) });
  await closeDb();
}

async function pay(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Full name").fill("Finance Buyer");
  await page.getByLabel("Country").selectOption("DE");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page.getByTestId("checkout-paid")).toBeVisible();
}

async function order(client: PartnerClient, domain: string, price: number): Promise<string> {
  const quote = await client.post<{ quote_id: string }>("/api/partner/v1/quotes", { domain });
  expect(quote.status, JSON.stringify(quote.body)).toBe(201);
  const body = { domain, expected_price: price, currency: "USD", buyer: { email: `buyer-${domain}@example.com` }, quote_id: quote.body.quote_id };
  const created = await client.post<{ public_id: string }>("/api/partner/v1/orders", body, randomUUID());
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.public_id;
}

/** Sells through every channel the finance views report; returns the orders to transfer. */
async function sell(client: PartnerClient, browser: Browser): Promise<string[]> {
  expect((await client.put("/api/partner/webhooks", { url: hookUrl, secret: `whsec_${randomUUID()}` })).status).toBe(200);
  const a = await order(client, names.a, PRICES.a);
  await order(client, names.b, PRICES.b);
  const refunded = await order(client, names.refunded, PRICES.refunded);
  expect((await client.post("/api/partner/v1/refunds", { order_id: refunded, reason: "buyer changed their mind" }, randomUUID())).status).toBe(201);
  // A request that fails, for the error rate.
  expect((await client.get("/api/partner/v1/orders/ord_0000000000000000000000")).status).toBe(404);

  const buyer = await browser.newContext();
  const buyerPage = await buyer.newPage();
  const paid = await client.post<{ checkout_url: string }>("/api/partner/v1/checkout-session", { domain: names.checkout });
  expect(paid.status).toBe(201);
  expect((await client.post("/api/partner/v1/checkout-session", { domain: names.unpaid })).status).toBe(201);
  const url = new URL(paid.body.checkout_url);
  await buyerPage.goto(`${url.pathname}${url.search}`);
  await pay(buyerPage, "checkout-buyer@example.com");
  const checkoutOrder = (await buyerPage.getByTestId("order-id").textContent())!.trim();

  // A storefront sale through the partner's referral link.
  const link = await client.post<{ url: string }>("/api/partner/v1/links", { type: "domain", domain: names.referred });
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  await buyerPage.goto(new URL(link.body.url).pathname);
  await buyerPage.getByRole("button", { name: "Buy now" }).click();
  await expect(buyerPage).toHaveURL(/\/checkout\?pt=cs_/);
  await pay(buyerPage, "referred-buyer@example.com");
  await buyer.close();
  return [a, checkoutOrder];
}

test("home figures and Finance agree with the REST reports, with charts, tables and CSV links", async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  const partner = await signUpNewPartner(page, { paymentModel: "mor" });
  await enableAffiliate(partner.email);

  // A quiet partner's home: figures at zero, no change to show.
  await page.reload();
  const gmv = page.getByTestId("figure-gmv");
  await expect(gmv.getByTestId("figure-value")).toHaveText("$0.00");
  await expect(page.getByTestId("figure-checkout-conversion").getByTestId("figure-value")).toHaveText("—");

  await page.getByTestId("first-key-offer").getByRole("button", { name: "Create sandbox key" }).click();
  const dialog = page.getByRole("dialog", { name: "Your sandbox key" });
  const keyId = (await dialog.getByTestId("new-key-id").textContent())!.trim();
  const secret = (await dialog.getByTestId("new-key-secret").textContent())!.trim();
  await dialog.getByRole("button", { name: "I have stored it" }).click();
  const client = createPartnerClient({ baseUrl: baseURL!, keyId, secret });

  const toTransfer = await sell(client, browser);
  await transferAndSettle(toTransfer);

  // --- Home ------------------------------------------------------------------------
  const gmvCents = PRICES.a + PRICES.b + PRICES.checkout;
  const saleCommission = (PRICES.a + PRICES.b + PRICES.checkout) / 10;
  const referralCommission = PRICES.referred / 10;
  await expect(async () => {
    await page.reload();
    await expect(gmv).toHaveAttribute("data-value", String(gmvCents), { timeout: 2000 });
    // Deliveries of the sale events have been made by the worker.
    await expect(page.getByTestId("figure-webhook-success")).toHaveAttribute("data-value", "1", { timeout: 2000 });
  }).toPass({ timeout: 45_000 });
  expect(delivered).toBeGreaterThan(0);
  await expect(gmv.getByTestId("figure-value")).toHaveText(money(gmvCents));
  await expect(page.getByTestId("figure-orders").getByTestId("figure-value")).toHaveText("4");
  await expect(page.getByTestId("figure-commission").getByTestId("figure-value")).toHaveText(money(saleCommission + referralCommission));
  await expect(page.getByTestId("figure-commission")).toContainText(`Sales ${money(saleCommission)} · referrals ${money(referralCommission)}`);
  await expect(page.getByTestId("figure-checkout-conversion").getByTestId("figure-value")).toHaveText("50.0%");
  await expect(page.getByTestId("figure-checkout-conversion")).toContainText("1 of 2 hosted checkout links paid");
  const errors = page.getByTestId("figure-api-errors");
  await expect(errors).toContainText(/1 of \d+ requests answered 4xx or 5xx/);
  // Each figure has its 30-day sparkline, drawn.
  await expect(page.getByTestId("sparkline")).toHaveCount(6);
  for (const line of await page.getByTestId("sparkline").all()) {
    await expect(line).toHaveAttribute("data-points", "30");
    await expect(line.locator("path.recharts-area-curve")).toHaveCount(1);
  }

  // The same figures from the REST reports, for the window the home shows.
  const figures = page.getByTestId("figures");
  const window = `from=${encodeURIComponent((await figures.getAttribute("data-from"))!)}&to=${encodeURIComponent((await figures.getAttribute("data-to"))!)}`;
  const transactions = await client.get<{ totals: { currency: string; count: number; gmv_cents: number; commission_cents: number }[] }>(
    `/api/partner/v1/transactions?${window}`,
  );
  const analytics = await client.get<{ revenue: { currency: string; commission_cents: number }[] }>(`/api/partner/v1/analytics?${window}`);
  expect(transactions.body.totals).toEqual([{ currency: "USD", count: 4, gmv_cents: gmvCents, commission_cents: saleCommission }]);
  expect(analytics.body.revenue).toEqual([{ currency: "USD", gmv_cents: PRICES.referred, commission_cents: referralCommission }]);
  await expect(page.getByTestId("figure-commission")).toHaveAttribute("data-value", String(transactions.body.totals[0]!.commission_cents + analytics.body.revenue[0]!.commission_cents));

  await expect(page.getByTestId("onboarding")).toBeVisible();
  await expectAccessible(page, "home with figures");
  await saveScreenshots(page, "home");

  // Another period is another URL; today's sales are in the last 7 days too.
  await page.getByRole("group", { name: "Period" }).getByRole("button", { name: "7 days" }).click();
  await expect(page).toHaveURL(/period=7d/);
  await expect(page.getByTestId("key-figures-window")).toContainText("against the 7 days before");
  await expect(page.getByTestId("sparkline").first()).toHaveAttribute("data-points", "7");
  await expect(gmv).toHaveAttribute("data-value", String(gmvCents));

  // --- Finance: overview charts -------------------------------------------------------
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Finance" }).click();
  await expect(page.getByRole("heading", { name: "Finance", level: 1 })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Overview" })).toHaveAttribute("aria-selected", "true");
  const gmvChart = page.getByTestId("chart-gmv");
  await expect(gmvChart.getByTestId("chart")).toHaveAttribute("aria-label", new RegExp(`${money(gmvCents).replace("$", "\\$")} in total`));
  await expect(gmvChart.locator(".recharts-bar-rectangle path, .recharts-bar-rectangle rect").first()).toBeVisible();
  await expect(page.getByTestId("overview-gmv")).toHaveText(money(gmvCents));
  await expectAccessible(page, "finance overview");
  await saveScreenshots(page, "finance-overview");

  await gmvChart.getByRole("button", { name: "Show as table" }).click();
  const today = new Date().toISOString().slice(0, 10);
  const todayRow = gmvChart.locator(`[data-testid="gmv-row"][data-bucket="${today}"]`);
  await expect(todayRow.getByTestId("gmv-cell")).toHaveText(money(gmvCents));
  await expect(todayRow).toContainText(money(saleCommission));
  await expect(todayRow).toContainText(money(referralCommission));
  await expect(gmvChart.getByTestId("gmv-row")).toHaveCount(30);

  const statuses = page.getByTestId("chart-statuses");
  await statuses.getByRole("button", { name: "Show as table" }).click();
  await expect(statuses.locator('[data-status="SETTLED"]')).toContainText("2");
  await expect(statuses.locator('[data-status="SETTLED"]')).toContainText(money(PRICES.a + PRICES.checkout));
  await expect(statuses.locator('[data-status="REFUNDED"]')).toContainText("1");
  await expect(statuses.locator('[data-status="EXTERNALLY_PAID"]')).toContainText("1");
  const funnel = page.getByTestId("chart-funnel");
  await expect(funnel.getByTestId("chart")).toHaveAttribute("aria-label", /1 clicks, 1 checkouts started, 1 sales/);
  await funnel.getByRole("button", { name: "Show as table" }).click();
  await expect(funnel.locator('[data-stage="clicks"]')).toContainText("1");
  await expect(funnel.locator('[data-stage="sales"]')).toContainText("100.0%");
  await expectAccessible(page, "finance overview as tables");

  // By month: one bucket holding the same total.
  await page.getByRole("group", { name: "Group by" }).getByRole("button", { name: "Month" }).click();
  await expect(page).toHaveURL(/granularity=month/);
  await expect(page.getByTestId("chart-gmv").getByRole("button", { name: "Show as table" })).toBeVisible();
  await page.getByTestId("chart-gmv").getByRole("button", { name: "Show as table" }).click();
  const months = page.getByTestId("chart-gmv").getByTestId("gmv-row");
  await expect(months.last().getByTestId("gmv-cell")).toHaveText(money(gmvCents));

  // --- Settlements ------------------------------------------------------------------
  await page.getByRole("tab", { name: "Settlements" }).click();
  await expect(page).toHaveURL(/tab=settlements/);
  const statement = page.getByTestId("statement-row");
  await expect(statement).toHaveCount(1);
  await expect(statement).toContainText(money(PRICES.a));
  await expect(statement).toContainText(money(PRICES.a - PRICES.a / 10));
  await expect(page.getByTestId("total-owed-USD")).toHaveText(money(PRICES.a - PRICES.a / 10));
  await expect(page.getByTestId("download-csv")).toHaveAttribute("href", "/dashboard/export/settlements");
  await page.getByLabel("Currency").fill("usd");
  await page.getByLabel("Currency").press("Enter");
  await expect(page).toHaveURL(/currency=USD/);
  await expect(page.getByTestId("download-csv")).toHaveAttribute("href", "/dashboard/export/settlements?currency=USD");
  await expectAccessible(page, "finance settlements");
  await saveScreenshots(page, "finance-settlements");
  await statement.getByRole("button", { name: /USD statement$/ }).click();
  const detail = page.getByRole("dialog");
  await expect(detail.getByTestId("statement-order")).toHaveCount(1);
  await expect(detail.getByTestId("statement-order")).toContainText(names.a);
  await expect(page).toHaveURL(/statement=stl_/);
  await expectAccessible(page, "statement detail");
  await saveScreenshots(page, "finance-statement");
  await detail.getByRole("button", { name: "Close" }).click();
  await expect(page).not.toHaveURL(/statement=/);

  // --- Transactions -----------------------------------------------------------------
  await page.getByRole("tab", { name: "Transactions" }).click();
  await expect(page.getByTestId("transaction-row")).toHaveCount(4);
  await expect(page.getByTestId("total-gmv-USD")).toHaveText(money(transactions.body.totals[0]!.gmv_cents));
  await expect(page.getByTestId("total-commission-USD")).toHaveText(money(transactions.body.totals[0]!.commission_cents));
  await page.getByRole("group", { name: /Status/ }).getByRole("button", { name: "Settled" }).click();
  await expect(page).toHaveURL(/status=SETTLED/);
  await expect(page.getByTestId("transaction-row")).toHaveCount(2);
  await page.getByLabel("From (UTC)").fill(today);
  await page.getByLabel("To (UTC, inclusive)").fill(today);
  const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  await expect(page.getByTestId("download-csv")).toHaveAttribute("href", `/dashboard/export/transactions?from=${today}&to=${tomorrow}&status=SETTLED`);
  const settledRest = await client.get<Listed>(`/api/partner/v1/transactions?from=${today}&to=${tomorrow}&status=SETTLED`);
  expect(settledRest.body.data.map((o) => o.id).sort()).toEqual(toTransfer.sort());
  await expect(page.getByTestId("transaction-row")).toHaveCount(2);
  await expectAccessible(page, "finance transactions");
  await saveScreenshots(page, "finance-transactions");

  // --- Payouts ----------------------------------------------------------------------
  await page.getByRole("tab", { name: "Payouts" }).click();
  await expect(page.getByTestId("payout-row")).toHaveCount(1);
  await expect(page.getByTestId("payout-row")).toContainText(money(PRICES.checkout / 10));
  await expect(page.getByTestId("total-paid-USD")).toHaveText(money(PRICES.checkout / 10));
  await expect(page.getByTestId("download-csv")).toHaveAttribute("href", `/dashboard/export/payouts?from=${today}&to=${tomorrow}`);
  await expectAccessible(page, "finance payouts");
  await saveScreenshots(page, "finance-payouts");

  // --- Commissions ------------------------------------------------------------------
  await page.getByRole("tab", { name: "Commissions" }).click();
  await expect(page.getByTestId("commission-row")).toHaveCount(2);
  await expect(page.getByTestId("total-accrued-USD")).toHaveText(money(referralCommission));
  await page.getByLabel("State", { exact: true }).selectOption("accrued");
  await expect(page.getByTestId("commission-row")).toHaveCount(1);
  await expect(page.getByTestId("download-csv")).toHaveAttribute("href", `/dashboard/export/commissions?from=${today}&to=${tomorrow}&state=accrued`);
  await expectAccessible(page, "finance commissions");
  await saveScreenshots(page, "finance-commissions");
});

test("a hosted-checkout partner without an affiliate account is told where its money is", async ({ page }) => {
  await signUpNewPartner(page);
  await page.goto("/dashboard/finance?tab=settlements");
  await expect(page.getByTestId("settlements-not-mor")).toBeVisible();
  await page.getByRole("button", { name: "Go to Payouts" }).click();
  await expect(page).toHaveURL(/tab=payouts/);
  await expect(page.getByText("No payouts yet")).toBeVisible();
  await page.getByRole("tab", { name: "Commissions" }).click();
  await expect(page.getByTestId("commissions-not-affiliate")).toBeVisible();
  await page.getByRole("tab", { name: "Overview" }).click();
  await expect(page.getByTestId("chart-funnel")).toContainText("Referral links come with an affiliate account");
  await expect(page.getByTestId("overview-gmv")).toHaveText("$0.00");
  await expectAccessible(page, "finance for a new hosted-checkout partner");
  await saveScreenshots(page, "finance-empty");
});
