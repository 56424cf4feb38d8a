import { expect, test } from "@playwright/test";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { payments } from "@/db/schema";
import { addDomain } from "@/server/services/inventory";
import { createCredential, createPartner } from "@/server/services/partners";
import { createPartnerClient, type PartnerClient } from "@/server/signing/client";
import Stripe from "stripe";
import { E2E_STRIPE_KEYS, e2eStripeUrl } from "../../tests/helpers/stripe-e2e-keys";
import { expectAccessible, saveScreenshots } from "../dashboard/helpers";

// Live hosted checkout in Chromium, the app paying through a local stand-in of
// Stripe's API (playwright.config.ts starts it): the page has no card input of
// its own and mounts the Payment Element container; Stripe.js cannot load on
// these machines, and the page says so; the return page shows the intent's
// status as read on the server, whatever the redirect's query claims.

const tag = `e2elive${Date.now().toString(36)}`;
let client: PartnerClient;
let n = 0;

test.beforeAll(async ({ baseURL }) => {
  const db = getDb();
  const partner = await createPartner(db, { name: `Live Seller ${tag}`, email: `${tag}@test.example`, paymentModel: "non_mor", isAffiliate: false, liveApproved: true });
  const credential = await createCredential(db, { partnerId: partner.partnerId, environment: "live", scopes: ["embed"] });
  client = createPartnerClient({ baseUrl: baseURL!, keyId: credential.keyId, secret: credential.secret });
});
test.afterAll(closeDb);

async function liveSession() {
  const domain = `${tag}-${++n}.com`;
  await addDomain(getDb(), { environment: "live", name: domain, priceCents: 250_000 });
  const res = await client.post<{ checkout_session_id: string; checkout_url: string }>("/api/partner/v1/checkout-session", {
    domain,
    return_url: "https://partner.example/thanks",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const url = new URL(res.body.checkout_url);
  return { path: `${url.pathname}${url.search}`, sessionId: res.body.checkout_session_id, domain };
}

async function intentIdOf(sessionId: string): Promise<string> {
  const [row] = await getDb().select().from(payments).where(eq(payments.checkoutSessionId, sessionId));
  expect(row?.providerRef).toMatch(/^pi_/);
  return row!.providerRef!;
}

async function moveIntent(intentId: string, to: "succeed" | "decline" | "process"): Promise<Record<string, unknown>> {
  const res = await fetch(`${e2eStripeUrl()}/__stand-in/payment_intents/${intentId}/${to}`, { method: "POST" });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** An event as Stripe would POST it, signed with the app's webhook secret. */
function signedEvent(type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({ id: `evt_${Date.now()}${n}`, object: "event", type, created: Math.floor(Date.now() / 1000), livemode: false, data: { object } });
  const header = new Stripe("sk_test_unused").webhooks.generateTestHeaderString({ payload, secret: E2E_STRIPE_KEYS.webhookSecret });
  return { data: payload, headers: { "content-type": "application/json", "stripe-signature": header } };
}

test("the live page has no card input of its own, mounts the Payment Element container, and says when Stripe.js cannot load", async ({ page }) => {
  const { path, sessionId, domain } = await liveSession();
  // js.stripe.com is unreachable from these machines; make the failure immediate rather than a DNS wait.
  await page.route("https://js.stripe.com/**", (route) => route.abort("internetdisconnected"));
  const response = await page.goto(path);
  const csp = response!.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("script-src 'self' 'unsafe-inline' https://js.stripe.com");
  expect(csp).toContain("frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com");
  expect(csp).toContain("connect-src 'self' https://api.stripe.com");

  await expect(page.getByTestId("checkout-domain")).toHaveText(domain);
  await expect(page.getByTestId("payment-element")).toBeAttached();
  await expect(page.getByTestId("stripe-load-error")).toContainText("did not load");
  await expect(page.getByTestId("stripe-load-error")).toContainText("Nothing was charged.");
  await expect(page.locator('input[autocomplete^="cc-"]')).toHaveCount(0);
  await expect(page.locator('input[name^="card"]')).toHaveCount(0);
  await page.screenshot({ path: "test-results/live-checkout-no-stripejs.png", fullPage: true });
  await expectAccessible(page, "live checkout, Stripe.js unavailable");
  await saveScreenshots(page, "live-checkout-no-stripejs");
  await page.setViewportSize({ width: 1280, height: 720 });

  // Reloading reuses the one intent.
  const first = await intentIdOf(sessionId);
  await page.reload();
  await expect(page.getByTestId("payment-element")).toBeAttached();
  expect((await getDb().select().from(payments).where(eq(payments.checkoutSessionId, sessionId))).map((p) => p.providerRef)).toEqual([first]);

  // No other page gains Stripe's sources.
  const home = (await page.request.get("/")).headers()["content-security-policy"] ?? "";
  expect(home).not.toContain("stripe");
});

test("the return page shows processing, failed and succeeded from the intent read on the server", async ({ page }) => {
  await page.route("https://js.stripe.com/**", (route) => route.abort("internetdisconnected"));
  const { path, sessionId } = await liveSession();
  await page.goto(path);
  const intentId = await intentIdOf(sessionId);
  // Stripe's redirect appends these; the page must not believe them.
  const back = (status: string) => `${path}&payment_intent=${intentId}&payment_intent_client_secret=${intentId}_secret_x&redirect_status=${status}`;

  await moveIntent(intentId, "process");
  await page.goto(back("succeeded"));
  await expect(page.getByTestId("checkout-processing")).toContainText("being processed");
  await page.screenshot({ path: "test-results/live-checkout-processing.png", fullPage: true });

  await moveIntent(intentId, "decline");
  await page.goto(back("succeeded"));
  await expect(page.getByTestId("checkout-declined")).toContainText("Your card was declined. No payment was taken.");
  await expect(page.getByTestId("payment-element")).toBeAttached();
  await page.screenshot({ path: "test-results/live-checkout-declined.png", fullPage: true });

  await moveIntent(intentId, "succeed");
  await page.goto(back("failed"));
  await expect(page.getByTestId("checkout-paid")).toBeVisible();
  await expect(page.getByTestId("order-id")).toHaveText(/^ord_/);
  await page.screenshot({ path: "test-results/live-checkout-paid.png", fullPage: true });
});

test("two buyers, one domain: the sale comes from Stripe's signed webhook, and the later payment's page says it was refunded", async ({ page, request }) => {
  await page.route("https://js.stripe.com/**", (route) => route.abort("internetdisconnected"));
  const first = await liveSession();
  const domain = first.domain;
  const res = await client.post<{ checkout_session_id: string; checkout_url: string }>("/api/partner/v1/checkout-session", { domain });
  expect(res.status).toBe(201);
  const secondUrl = new URL(res.body.checkout_url);
  const second = { path: `${secondUrl.pathname}${secondUrl.search}`, sessionId: res.body.checkout_session_id };
  await page.goto(first.path);
  await page.goto(second.path);

  // The first buyer pays; Stripe tells the service through the webhook.
  const paid = await moveIntent(await intentIdOf(first.sessionId), "succeed");
  const forged = signedEvent("payment_intent.succeeded", paid);
  const refused = await request.post("/api/payments/stripe/webhook", { data: forged.data, headers: { ...forged.headers, "stripe-signature": "t=1,v1=00" } });
  expect(refused.status()).toBe(400);
  const delivered = await request.post("/api/payments/stripe/webhook", signedEvent("payment_intent.succeeded", paid));
  expect(delivered.status(), await delivered.text()).toBe(200);
  await page.goto(first.path);
  await expect(page.getByTestId("checkout-paid")).toBeVisible();

  // The second buyer's payment also went through; their return page explains the refund.
  await moveIntent(await intentIdOf(second.sessionId), "succeed");
  await page.goto(`${second.path}&redirect_status=succeeded`);
  await expect(page.getByTestId("checkout-refunded")).toContainText("refunded in full");
  await page.screenshot({ path: "test-results/live-checkout-refunded.png", fullPage: true });
});
