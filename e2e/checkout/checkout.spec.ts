import { expect, test, type Page } from "@playwright/test";
import { closeDb, getDb } from "@/db/client";
import { getDemoCredential } from "@/db/seed";
import { addDomain } from "@/server/services/inventory";
import { createPartnerClient, type PartnerClient } from "@/server/signing/client";

// Hosted checkout in Chromium: a buyer opens a link the demo non-MoR partner
// created, pays with a sandbox test card and lands on the partner's return_url;
// the partner then sees the order PAID. Declines and tampered links show clear
// errors. The storefront's buy-now reaches the same page and works without JS.

interface Session {
  checkout_session_id: string;
  checkout_url: string;
  domain: string;
}

const RETURN_URL = "https://partner.example/thanks";
const tag = `e2eco${Date.now().toString(36)}`;
const names = { paid: `${tag}-paid.com`, declined: `${tag}-declined.com`, store: `${tag}store.com` };

let client: PartnerClient;

test.beforeAll(async ({ baseURL }) => {
  const db = getDb();
  const credential = await getDemoCredential(db, "nonMor");
  for (const name of Object.values(names)) await addDomain(db, { environment: "sandbox", name, priceCents: 129_900 });
  await closeDb();
  client = createPartnerClient({ baseUrl: baseURL!, ...credential });
});

async function createSession(body: Record<string, unknown>): Promise<Session> {
  const res = await client.post<Session>("/api/partner/v1/checkout-session", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** The checkout URL is absolute on APP_URL; open its path on the test server. */
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

async function fillBuyer(page: Page, cardNumber: string) {
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("Full name").fill("Ada Lovelace");
  await page.getByLabel("Country").selectOption("GB");
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
}

test("a buyer pays a partner's checkout link and the partner sees the order PAID", async ({ page }) => {
  const session = await createSession({ domain: names.paid, return_url: RETURN_URL, cancel_url: "https://partner.example/cart" });
  await page.route("https://partner.example/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Partner</title><h1>Thanks from Bright Affiliates</h1>" }),
  );

  await page.goto(pathOf(session.checkout_url));
  await expect(page.getByTestId("checkout-domain")).toHaveText(names.paid);
  await expect(page.getByTestId("checkout-price")).toContainText("$1,299.00");
  await expect(page.getByTestId("checkout-partner")).toHaveText("Sold through Bright Affiliates");
  await fillBuyer(page, "4242 4242 4242 4242");
  await page.screenshot({ path: "test-results/checkout-form.png", fullPage: true });
  await page.getByRole("button", { name: /^Pay \$1,299\.00$/ }).click();

  await expect(page).toHaveURL(/^https:\/\/partner\.example\/thanks\?order_id=ord_/);
  const orderId = new URL(page.url()).searchParams.get("order_id")!;
  await expect(page.getByRole("heading", { name: "Thanks from Bright Affiliates" })).toBeVisible();

  const list = await client.get<{ data: { public_id: string; status: string; channel: string; domain: string }[] }>(
    `/api/partner/v1/orders?domain=${names.paid}`,
  );
  expect(list.status).toBe(200);
  expect(list.body.data).toEqual([expect.objectContaining({ public_id: orderId, status: "PAID", channel: "checkout", domain: names.paid })]);

  // The link again: already paid, with the order id, and no form.
  await page.goto(pathOf(session.checkout_url));
  await expect(page.getByTestId("checkout-paid")).toBeVisible();
  await expect(page.getByTestId("order-id")).toHaveText(orderId);
  await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  await page.screenshot({ path: "test-results/checkout-paid.png", fullPage: true });
});

test("a declined card shows the error and keeps the buyer on the form", async ({ page }) => {
  const session = await createSession({ domain: names.declined });
  await page.goto(pathOf(session.checkout_url));
  await fillBuyer(page, "4000 0000 0000 0002");
  await page.getByRole("button", { name: /^Pay/ }).click();
  const alert = page.getByRole("alert").filter({ hasText: "declined" });
  await expect(alert).toContainText("Your card was declined. No payment was taken.");
  await expect(page.getByLabel("Email")).toHaveValue("ada@example.com");
  await expect(page.getByLabel("Country")).toHaveValue("GB");
  await page.screenshot({ path: "test-results/checkout-declined.png", fullPage: true });

  // A mistyped card number is flagged on the field itself.
  await page.getByLabel("Card number").fill("4242 4242 4242 4241");
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page.getByLabel("Card number")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Card number is not valid.")).toBeVisible();

  const list = await client.get<{ data: unknown[] }>(`/api/partner/v1/orders?domain=${names.declined}`);
  expect(list.body.data).toEqual([]);
});

test("a tampered checkout link shows an error page and no form", async ({ page }) => {
  const session = await createSession({ domain: names.declined });
  const pt = new URL(session.checkout_url).searchParams.get("pt")!;
  const [id, payload, signature] = pt.split(".") as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
  const cheaper = Buffer.from(JSON.stringify({ ...claims, a: 100 })).toString("base64url");
  await page.goto(`/checkout?pt=${encodeURIComponent(`${id}.${cheaper}.${signature}`)}`);
  await expect(page.getByRole("heading", { name: "This checkout link is not valid" })).toBeVisible();
  await expect(page.getByText("Nothing was charged.")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  await page.screenshot({ path: "test-results/checkout-invalid.png", fullPage: true });
});

test("storefront: search, open a domain, buy now and pay, all without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto("/domains");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Find a domain for your next idea");
  await page.getByRole("searchbox", { name: "Search domains" }).fill(names.store);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/\/domains\?q=/);
  await page.screenshot({ path: "test-results/checkout-storefront-search.png", fullPage: true });
  await page.getByRole("link", { name: names.store }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(names.store);
  await expect(page.getByTestId("domain-price")).toContainText("$1,299.00");
  await page.screenshot({ path: "test-results/checkout-storefront-domain.png", fullPage: true });
  await page.getByRole("button", { name: "Buy now" }).click();

  await expect(page).toHaveURL(/\/checkout\?pt=cs_/);
  await expect(page.getByTestId("checkout-domain")).toHaveText(names.store);
  await expect(page.getByTestId("checkout-partner")).toHaveCount(0);
  await fillBuyer(page, "4242424242424242");
  await page.screenshot({ path: "test-results/checkout-form-mobile.png", fullPage: true });
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page.getByTestId("checkout-paid")).toBeVisible();
  await expect(page.getByTestId("order-id")).toHaveText(/^ord_/);
  await context.close();
});
