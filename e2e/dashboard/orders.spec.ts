import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { users } from "@/db/schema";
import { addDomain } from "@/server/services/inventory";
import { transitionOrder } from "@/server/services/order-states";
import { createCredential } from "@/server/services/partners";
import { createPartnerClient, type PartnerClient } from "@/server/signing/client";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "./helpers";

// The Orders pages in Chromium: a new merchant-of-record partner records three
// sales over the signed API (one buyer name is a spreadsheet formula), its
// webhook receiver gets the events; the list filters by domain and status in
// the URL, the CSV download carries the filters, decimal amounts and the
// formula escaped; an order's page shows its timeline, events and deliveries;
// a refund asks for a reason and lands on the timeline; a refund refused by the
// server (the transfer started meanwhile) says why; a checkout link is created
// and copied, and opens the hosted page; live starts empty and refuses links
// until production access is approved.

const tag = `e2eord${Date.now().toString(36)}`;
const names = { alpha: `${tag}-alpha-shop.com`, beta: `${tag}-beta.com`, gamma: `${tag}-gamma-shop.com`, link: `${tag}-link.com` };
const FORMULA_NAME = '=HYPERLINK("http://evil.example","Click")';

let receiver: Server;
let delivered = 0;

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      delivered++;
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
});

test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await closeDb();
});

async function record(client: PartnerClient, domain: string, price: number, buyer: Record<string, string>, ref?: string): Promise<string> {
  const response = await client.post<{ public_id: string }>(
    "/api/partner/v1/orders",
    { domain, expected_price: price, currency: "USD", buyer, ...(ref ? { external_payment_ref: ref } : {}) },
    randomUUID(),
  );
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.public_id;
}

test("orders: filter, CSV download, timeline with deliveries, refund, checkout link", async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  const partner = await signUpNewPartner(page, { paymentModel: "mor" });
  const db = getDb();
  const [user] = await db.select({ partnerId: users.partnerId }).from(users).where(eq(users.email, partner.email));
  if (!user?.partnerId) throw new Error(`no partner user ${partner.email}`);
  const key = await createCredential(db, { partnerId: user.partnerId, environment: "sandbox", scopes: ["buy", "webhook"], label: "E2E orders" });
  await addDomain(db, { environment: "sandbox", name: names.alpha, priceCents: 123_450 });
  await addDomain(db, { environment: "sandbox", name: names.beta, priceCents: 50_000 });
  await addDomain(db, { environment: "sandbox", name: names.gamma, priceCents: 99_999 });
  await addDomain(db, { environment: "sandbox", name: names.link, priceCents: 31_400 });

  const client = createPartnerClient({ baseUrl: baseURL!, keyId: key.keyId, secret: key.secret });
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  expect((await client.put("/api/partner/webhooks", { url: hook, secret: `whsec_${randomUUID()}` })).status).toBe(200);
  const alpha = await record(client, names.alpha, 123_450, { email: "ada@example.com", name: FORMULA_NAME }, "@pay-0001");
  const beta = await record(client, names.beta, 50_000, { email: "bob@example.com", name: "Bob Buyer" });
  const gamma = await record(client, names.gamma, 99_999, { email: "cy@example.com", name: "Cy, \"the\" buyer" }, "-5+5");
  await transitionOrder(db, { orderId: beta, action: "start_transfer", actor: { type: "admin", id: "e2e" } });
  // The worker delivers every event to the receiver (3 recorded, 1 transfer started).
  await expect.poll(() => delivered, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);

  // --- the list -----------------------------------------------------------------
  await page.goto("/dashboard/orders");
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  const rows = page.getByTestId("order-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(names.gamma);
  await expect(rows.nth(0)).toContainText("$999.99");
  await expect(rows.nth(0)).toContainText("$100.00"); // 10 % commission, halves up
  await expect(rows.nth(2)).toContainText(names.alpha);
  await expect(rows.nth(2).getByRole("button", { name: `Copy order id ${alpha}` })).toBeVisible();
  await expectAccessible(page, "orders list");
  await saveScreenshots(page, "orders-list");

  // Part of the domain, in the URL.
  await page.getByLabel("Domain").fill("shop");
  await expect(page).toHaveURL(/[?&]q=shop/);
  await expect(rows).toHaveCount(2);
  await expect(rows.getByTestId("order-status")).toHaveText(["Paid to you", "Paid to you"]);

  // The CSV carries the same filters: two rows, decimal amounts, formulas escaped.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^orders-sandbox-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, "utf8");
  const records = parse(csv, { columns: true }) as Record<string, string>[];
  expect(records.map((r) => r.order_id)).toEqual([gamma, alpha]);
  const alphaRow = records[1]!;
  expect(alphaRow).toMatchObject({ domain: names.alpha, status: "EXTERNALLY_PAID", currency: "USD", sale_price: "1234.50", commission: "123.45" });
  expect(alphaRow.buyer_name).toBe(`'${FORMULA_NAME}`);
  expect(alphaRow.external_payment_ref).toBe("'@pay-0001");
  expect(records[0]).toMatchObject({ buyer_name: 'Cy, "the" buyer', external_payment_ref: "'-5+5", sale_price: "999.99" });
  expect(csv.split("\r\n")[0]).toBe(
    "order_id,created_at,domain,status,channel,currency,sale_price,commission_bps,commission,buyer_email,buyer_name,buyer_country,external_payment_ref,transfer_completed_at,settlement_id,updated_at",
  );

  // The export route answers for the session's partner only, with the REST lists' rules.
  const settlements = await page.request.get("/dashboard/export/settlements?currency=usd");
  expect(settlements.status()).toBe(200);
  expect(settlements.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(await settlements.text()).toMatch(/^id,period_start,period_end,/);
  const commissions = await page.request.get("/dashboard/export/commissions");
  expect(commissions.status()).toBe(403);
  expect(((await commissions.json()) as { error: { code: string } }).error.code).toBe("forbidden");
  expect((await page.request.get("/dashboard/export/orders?from=2025-02-30")).status()).toBe(400);
  expect((await page.request.get("/dashboard/export/customers")).status()).toBe(404);
  const anonymous = await fetch(`${baseURL}/dashboard/export/orders`);
  expect(anonymous.status).toBe(401);
  expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("unauthorized");

  // Status instead of the search.
  await page.getByLabel("Domain").fill("");
  await expect(page).not.toHaveURL(/[?&]q=/);
  await page.getByLabel("Status").selectOption("TRANSFER_IN_PROGRESS");
  await expect(page).toHaveURL(/[?&]status=TRANSFER_IN_PROGRESS/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(names.beta);
  await page.getByLabel("Status").selectOption("REFUNDED");
  await expect(page.getByText("No orders match these filters")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(rows).toHaveCount(3);

  // --- one order: timeline, events and their deliveries ---------------------------
  await rows.filter({ hasText: names.alpha }).getByRole("link", { name: names.alpha }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/orders/${alpha}$`));
  const detail = page.getByTestId("order-detail");
  await expect(detail.getByRole("heading", { level: 1 })).toHaveText(names.alpha);
  await expect(detail.getByTestId("timeline-entry")).toHaveCount(1);
  await expect(detail.getByTestId("timeline-entry").first()).toContainText("sale recorded by the partner");
  const event = detail.getByTestId("order-event").filter({ hasText: "order.recorded" });
  await expect(event.getByRole("link", { name: "order.recorded" })).toHaveAttribute("href", /\/dashboard\/events\?event=evt_/);
  await expect(event.getByTestId("delivery-status")).toHaveText("Succeeded");
  await expect(event.getByRole("link", { name: "1 attempt" })).toHaveAttribute("href", /\/dashboard\/webhooks\?delivery=whd_/);
  await expect(detail.getByTestId("order-buyer")).toContainText("ada@example.com");
  await expect(detail.getByTestId("order-buyer")).toContainText(FORMULA_NAME);
  await expectAccessible(page, "order page");
  await saveScreenshots(page, "order-detail");

  // --- refund with a required reason ----------------------------------------------
  await detail.getByRole("button", { name: "Refund" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm.getByRole("heading")).toHaveText(`Refund $1,234.50 for ${names.alpha}?`);
  const confirmButton = confirm.getByRole("button", { name: "Refund $1,234.50" });
  await expect(confirmButton).toHaveAttribute("aria-disabled", "true");
  await confirm.getByLabel("Reason (required)").fill("Buyer cancelled within 24 hours");
  await expect(confirmButton).not.toHaveAttribute("aria-disabled");
  await expectAccessible(page, "refund dialog");
  await saveScreenshots(page, "order-refund-dialog");
  await confirmButton.click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText("Refund recorded", { exact: true })).toBeVisible();
  await expect(detail.getByTestId("order-status").first()).toHaveText("Refunded");
  await expect(detail.getByTestId("timeline-entry").last()).toContainText("refunded: Buyer cancelled within 24 hours");
  await expect(detail.getByTestId("order-refunds")).toContainText("$1,234.50");
  await expect(detail.getByRole("button", { name: "Refund" })).toHaveCount(0);
  await expect(detail.getByTestId("order-event").filter({ hasText: "order.refunded" })).toBeVisible();

  // A refund the server refuses (the transfer started while the dialog was open) says why.
  await page.goto(`/dashboard/orders/${gamma}`);
  await detail.getByRole("button", { name: "Refund" }).click();
  await confirm.getByLabel("Reason (required)").fill("Too late");
  await transitionOrder(getDb(), { orderId: gamma, action: "start_transfer", actor: { type: "admin", id: "e2e" } });
  await confirm.getByRole("button", { name: "Refund $999.99" }).click();
  await expect(confirm.getByRole("alert")).toContainText("a refund by request is allowed only before the transfer starts");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await page.reload();
  await expect(detail.getByTestId("refund-blocker")).toContainText("The transfer has started");

  // --- a hosted-checkout link ---------------------------------------------------------
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await page.goto("/dashboard/orders");
  await page.getByRole("button", { name: "Create checkout link" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Domain").fill(names.alpha.replace("alpha-shop", "nope"));
  await dialog.getByRole("button", { name: "Create link" }).click();
  await expect(dialog.getByRole("alert")).toContainText("is not listed");
  await dialog.getByLabel("Domain").fill(names.link.toUpperCase());
  await dialog.getByLabel("Return URL (optional)").fill("https://partner.example/thanks");
  await dialog.getByRole("button", { name: "Create link" }).click();
  const linkField = dialog.getByLabel("Link");
  await expect(linkField).toHaveValue(/\/checkout\?pt=cs_/);
  await expect(dialog).toContainText("$314.00");
  await dialog.getByRole("button", { name: "Copy link" }).click();
  await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
  const url = await linkField.inputValue();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expectAccessible(page, "checkout link dialog");
  await saveScreenshots(page, "orders-checkout-link");
  await dialog.getByRole("button", { name: "Done" }).click();

  // The link opens the hosted page for that domain.
  await page.goto(url);
  await expect(page.getByText(names.link).first()).toBeVisible();

  // Live is another list (empty here); without production access no live link can be made.
  await page.goto("/dashboard/orders");
  await page.getByTestId("environment-switch").getByRole("button", { name: /^live$/i }).click();
  await expect(page.getByText("No live orders yet")).toBeVisible();
  await expect(page.getByTestId("order-row")).toHaveCount(0);
  await expectAccessible(page, "empty live orders");
  await saveScreenshots(page, "orders-empty-live");
  await page.getByRole("button", { name: "Create checkout link" }).click();
  await dialog.getByLabel("Domain").fill(names.link);
  await dialog.getByRole("button", { name: "Create link" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Live needs production access");
  await page.keyboard.press("Escape");
  await page.getByTestId("environment-switch").getByRole("button", { name: /^sandbox$/i }).click();
  await expect(page.getByTestId("order-row")).toHaveCount(3);
});
