import { expect, test } from "@playwright/test";
import { closeDb, getDb } from "@/db/client";
import { getDemoCredential } from "@/db/seed";
import { addDomain } from "@/server/services/inventory";
import { createPartnerClient, type PartnerClient } from "@/server/signing/client";

// The referral program in Chromium: the demo affiliate (Bright Affiliates)
// creates a domain link, a buyer follows it, buys that domain on the storefront
// with a test card, and the affiliate's reports show the click, the attributed
// sale with the buyer and the accrued commission.

interface Link {
  id: string;
  url: string;
  target: string;
}

const name = `e2eref${Date.now().toString(36)}.com`;
const PRICE = 84_900;
let client: PartnerClient;

test.beforeAll(async ({ baseURL }) => {
  const db = getDb();
  const credential = await getDemoCredential(db, "nonMor");
  await addDomain(db, { environment: "sandbox", name, priceCents: PRICE });
  await closeDb();
  client = createPartnerClient({ baseUrl: baseURL!, ...credential });
});

test("a buyer follows a referral link and buys; the affiliate sees the sale and the commission", async ({ page, context }) => {
  const created = await client.post<Link>("/api/partner/v1/links", { type: "domain", domain: name, label: "e2e" });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.target).toBe(`/domains/${name}`);
  const link = created.body;

  // The link is absolute on APP_URL; open its path on the test server.
  await page.goto(new URL(link.url).pathname);
  await expect(page).toHaveURL(new RegExp(`/domains/${name.replace(".", "\\.")}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  const cookie = (await context.cookies()).find((c) => c.name === "pdm_ref");
  expect(cookie?.value).toMatch(new RegExp(`^${link.id}\\.`));
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");

  await page.getByRole("button", { name: "Buy now" }).click();
  await expect(page).toHaveURL(/\/checkout\?pt=cs_/);
  await page.getByLabel("Email").fill("grace@example.com");
  await page.getByLabel("Full name").fill("Grace Hopper");
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page.getByTestId("checkout-paid")).toBeVisible();
  const orderId = (await page.getByTestId("order-id").textContent())!.trim();
  expect(orderId).toMatch(/^ord_/);

  const commission = Math.round(PRICE / 10); // the demo affiliate's default 1000 bps
  const sales = await client.get<{ data: Record<string, unknown>[] }>("/api/partner/v1/me/sales?limit=100");
  expect(sales.status).toBe(200);
  expect(sales.body.data).toContainEqual(
    expect.objectContaining({
      order_id: orderId,
      link_id: link.id,
      buyer_email: "grace@example.com",
      domain: name,
      amount_cents: PRICE,
      commission_cents: commission,
      commission_state: "accrued",
    }),
  );

  const ledger = await client.get<{ data: Record<string, unknown>[] }>("/api/partner/v1/me/commissions?limit=100");
  expect(ledger.status).toBe(200);
  expect(ledger.body.data).toContainEqual(
    expect.objectContaining({ order_id: orderId, source: "referral", state: "accrued", amount_cents: commission }),
  );

  const links = await client.get<{ data: Record<string, unknown>[] }>("/api/partner/v1/links?limit=100");
  expect(links.body.data).toContainEqual(expect.objectContaining({ id: link.id, clicks: 1, checkouts: 1, conversions: 1 }));
});
