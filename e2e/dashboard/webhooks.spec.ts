import { expect, test, type Locator, type Page } from "@playwright/test";
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { verifyWebhookSignature } from "@/server/webhooks/signing";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "./helpers";
import { Receiver, type Received } from "./receiver";

// The Webhooks page and the Events explorer in Chromium, against a receiver
// running in this test: a new partner adds an endpoint on 127.0.0.1, reveals
// the secret, sends test events and checks their signatures; a failing receiver
// shows its 500s in the delivery detail and a resend delivers; a rolled secret
// signs with both secrets during its grace; the event explorer shows an event
// and its delivery; an auto-disabled endpoint shows its banner and re-enables.
// The server's retry schedule is WEBHOOK_RETRY_SCHEDULE=1s,2s,5s (playwright.config.ts).

const receiver = new Receiver();
let port = 0;

test.beforeAll(async () => {
  port = await receiver.start();
});

test.afterAll(async () => {
  await receiver.stop();
  await closeDb();
});

/** The header's signatures, each checked against the secret expected in that position. */
function signatures(request: Received): string[] {
  const header = request.headers["x-service-signature"];
  expect(typeof header, "X-Service-Signature header").toBe("string");
  return (header as string).split(",");
}

function deliveryRow(page: Page, eventId: string): Locator {
  return page.getByTestId("delivery-table").locator(`[data-event-id="${eventId}"]`);
}

async function sendTestEvent(page: Page, type: string) {
  await page.getByRole("button", { name: "Send test event" }).click();
  const dialog = page.getByRole("dialog", { name: "Send a test event" });
  await dialog.getByLabel("Event type").selectOption(type);
  await dialog.getByRole("button", { name: "Send test event" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Test event sent").first()).toBeVisible();
}

test("a partner sets up an endpoint, verifies signatures, resends failures, rolls the secret and explores events", async ({ page }) => {
  test.setTimeout(360_000); // three delivery retry runs plus two page builds on a shared 2-core machine
  const partner = await signUpNewPartner(page);

  // --- no endpoint yet -------------------------------------------------------------
  await page.goto("/dashboard/webhooks");
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await expect(page.getByText("No webhook endpoint yet")).toBeVisible();
  await expectAccessible(page, "webhooks, no endpoint");
  await saveScreenshots(page, "webhooks-empty");

  // The server's validation message shows on the field.
  await page.getByLabel("Endpoint URL").fill("ftp://127.0.0.1/hooks");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("must use https (or http in sandbox)")).toBeVisible();
  await expect(page.getByLabel("Endpoint URL")).toHaveAttribute("aria-invalid", "true");

  const url = `http://127.0.0.1:${port}/hooks`;
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("endpoint-url")).toHaveText(url);
  await expect(page.getByTestId("endpoint-status")).toHaveText("Active");
  await expect(page.getByText("No deliveries yet")).toBeVisible();

  // --- reveal the secret -------------------------------------------------------------
  await expect(page.getByTestId("signing-secret")).toContainText("••••");
  await page.getByRole("button", { name: "Reveal" }).click();
  await expect(page.getByTestId("signing-secret")).toHaveText(/^whsec_\w+$/);
  const secret = (await page.getByTestId("signing-secret").textContent())!;
  await expect(page.getByRole("button", { name: "Copy signing secret" })).toBeVisible();

  // --- a test event arrives, signed --------------------------------------------------
  await page.getByRole("button", { name: "Send test event" }).click();
  const sendDialog = page.getByRole("dialog", { name: "Send a test event" });
  await sendDialog.getByLabel("Event type").selectOption("order.paid");
  await expect(sendDialog.getByRole("region", { name: "Sample data of order.paid" })).toContainText('"status": "PAID"');
  await expectAccessible(page, "send test event dialog");
  await sendDialog.getByRole("button", { name: "Cancel" }).click();
  await sendTestEvent(page, "order.paid");

  const paid = await receiver.next("order.paid");
  expect(paid.answered).toBe(200);
  expect(signatures(paid)).toHaveLength(1);
  expect(verifyWebhookSignature(secret, paid.body, paid.headers["x-service-signature"] as string)).toBe(true);
  expect(paid.headers["x-service-event-id"]).toBe(paid.event.id);
  expect(JSON.parse(paid.body)).toMatchObject({ type: "order.paid", data: { test: true, order: { status: "PAID" } } });
  await expect(deliveryRow(page, paid.event.id)).toHaveAttribute("data-status", "succeeded");
  await expect(deliveryRow(page, paid.event.id).getByTestId("response-status")).toHaveText("200");
  await expect(page.getByTestId("stat-succeeded")).toContainText("1");
  await expectAccessible(page, "webhooks with an endpoint and a delivery");
  await saveScreenshots(page, "webhooks-endpoint");

  // --- a failing receiver: 500s in the detail, then Resend and Resend failed -------------
  receiver.failing = true;
  const beforeFailures = receiver.requests.length;
  await sendTestEvent(page, "order.refunded");
  await sendTestEvent(page, "order.settled");
  const refunded = await receiver.next("order.refunded", beforeFailures);
  const settled = await receiver.next("order.settled", beforeFailures);
  expect(refunded.answered).toBe(500);
  // Retries after 1 s, 2 s and 5 s, then the deliveries fail for good.
  await expect(deliveryRow(page, refunded.event.id)).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
  await expect(deliveryRow(page, settled.event.id)).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
  await expect(page.getByTestId("stat-failed")).toContainText("2");

  // Filters live in the URL.
  await page.getByLabel("Status").selectOption("failed");
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.getByTestId("delivery-table").getByTestId("delivery-row")).toHaveCount(2);
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(page).not.toHaveURL(/status=/);

  await deliveryRow(page, refunded.event.id).getByRole("link", { name: "order.refunded" }).click();
  await expect(page).toHaveURL(/delivery=whd_/);
  const detail = page.getByRole("dialog", { name: "Delivery" });
  await expect(detail.getByTestId("delivery-detail").getByTestId("delivery-status").first()).toHaveText("Failed");
  await expect(detail.getByTestId("attempt")).toHaveCount(4);
  await expect(detail.getByTestId("attempt").first().getByTestId("response-status")).toHaveText("500");
  await expect(detail.getByRole("region", { name: "Response body of attempt 4" })).toHaveText("receiver is down for the test");
  await expect(detail.getByTestId("event-json")).toContainText(refunded.event.id);
  await expectAccessible(page, "delivery detail");
  await saveScreenshots(page, "webhooks-delivery-detail");

  // The detail is a shareable URL.
  const detailUrl = page.url();
  await page.reload();
  await expect(page.getByRole("dialog", { name: "Delivery" }).getByTestId("event-json")).toContainText(refunded.event.id);
  expect(page.url()).toBe(detailUrl);

  receiver.failing = false;
  const beforeResend = receiver.requests.length;
  await detail.getByRole("button", { name: "Resend" }).click();
  await expect(page.getByText("Delivery queued").first()).toBeVisible();
  await expect(detail.getByTestId("delivery-detail").getByTestId("delivery-status").first()).toHaveText("Succeeded");
  const resent = await receiver.next("order.refunded", beforeResend);
  expect(resent.answered).toBe(200);
  expect(resent.event.id).toBe(refunded.event.id);
  // (Escape would first dismiss the toast, which is the topmost layer.)
  await detail.getByRole("button", { name: "Close" }).click();
  await expect(detail).toBeHidden();
  await expect(page).not.toHaveURL(/delivery=/);

  // Resend failed…: the one still failed goes out; pressing again queues nothing more.
  await page.getByRole("button", { name: "Resend failed…" }).click();
  const resendDialog = page.getByRole("dialog", { name: "Resend failed deliveries" });
  await expect(resendDialog.getByLabel("From")).not.toHaveValue("");
  await expectAccessible(page, "resend failed dialog");
  await resendDialog.getByRole("button", { name: "Resend failed deliveries" }).click();
  await expect(resendDialog.getByTestId("resend-result")).toContainText("1 delivery queued");
  await resendDialog.getByRole("button", { name: "Resend failed deliveries" }).click();
  await expect(resendDialog.getByTestId("resend-result")).toContainText("0 deliveries queued");
  await resendDialog.getByRole("button", { name: "Close", exact: true }).first().click();
  await expect(deliveryRow(page, settled.event.id)).toHaveAttribute("data-status", "succeeded");

  // --- roll the secret with a 1-hour grace: both signatures, new first -------------------
  await page.getByRole("button", { name: "Roll secret" }).click();
  const rollDialog = page.getByRole("dialog", { name: "Roll the signing secret" });
  await rollDialog.getByLabel("Keep the old secret valid for").selectOption("1h");
  await expect(rollDialog).toContainText("comma-separated");
  await expectAccessible(page, "roll secret dialog");
  await rollDialog.getByRole("button", { name: "Roll secret" }).click();
  const newSecretDialog = page.getByRole("dialog", { name: "Your new signing secret" });
  await expect(newSecretDialog.getByTestId("new-secret")).toHaveText(/^whsec_\w+$/);
  const newSecret = (await newSecretDialog.getByTestId("new-secret").textContent())!;
  expect(newSecret).not.toBe(secret);
  await expectAccessible(page, "new secret shown once");
  await newSecretDialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("old-secret-expiry")).toContainText("Old secret expires in");
  await expect(page.getByTestId("signing-secret")).toContainText("••••");

  const beforeRoll = receiver.requests.length;
  await sendTestEvent(page, "order.paid");
  const rolled = await receiver.next("order.paid", beforeRoll);
  const [first, second] = signatures(rolled);
  expect(signatures(rolled)).toHaveLength(2);
  expect(verifyWebhookSignature(newSecret, rolled.body, first)).toBe(true);
  expect(verifyWebhookSignature(secret, rolled.body, second)).toBe(true);
  expect(verifyWebhookSignature(secret, rolled.body, first)).toBe(false);
  expect(verifyWebhookSignature(newSecret, rolled.body, rolled.headers["x-service-signature"] as string)).toBe(true);
  await expect(deliveryRow(page, rolled.event.id)).toHaveAttribute("data-status", "succeeded");

  // --- the event explorer -----------------------------------------------------------
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Events" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
  await expect(page.getByText("GET /api/partner/v1/events")).toBeVisible();
  const eventRows = page.getByTestId("event-table").getByTestId("event-row");
  await expect(eventRows).toHaveCount(4);
  // Newest first.
  await expect(eventRows.first()).toHaveAttribute("data-event-id", rolled.event.id);
  await page.getByLabel("Type").selectOption("order.paid");
  await expect(page).toHaveURL(/type=order\.paid/);
  await expect(eventRows).toHaveCount(2);
  await expect(page.getByTestId("event-table")).not.toContainText("order.refunded");
  await page.getByLabel("Type").selectOption("order.*");
  await expect(eventRows).toHaveCount(4);
  await page.getByLabel("Type").selectOption("order.paid");
  await expect(eventRows).toHaveCount(2);
  await expect(eventRows.last()).toContainText("test-order-example.com · PAID (test)");
  await expectAccessible(page, "events list");
  await saveScreenshots(page, "events-list");

  await page.getByTestId("event-table").locator(`[data-event-id="${paid.event.id}"]`).getByRole("link", { name: "order.paid" }).click();
  await expect(page).toHaveURL(new RegExp(`event=${paid.event.id}`));
  const eventDialog = page.getByRole("dialog", { name: "Event" });
  const json = JSON.parse((await eventDialog.getByTestId("event-json").textContent())!) as { id: string; type: string };
  expect(json).toMatchObject({ id: paid.event.id, type: "order.paid" });
  expect(json).toEqual(JSON.parse(paid.body)); // exactly what the receiver got
  const carried = eventDialog.getByTestId("event-delivery");
  await expect(carried).toHaveCount(1);
  await expect(carried.getByTestId("delivery-status")).toHaveText("Succeeded");
  await expect(carried.getByTestId("response-status")).toHaveText("200");
  await expectAccessible(page, "event detail");
  await saveScreenshots(page, "events-detail");

  // From the event to the delivery that carried it.
  await carried.getByRole("link", { name: "View delivery" }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks\?delivery=whd_/);
  await expect(detail.getByTestId("event-json")).toContainText(paid.event.id);
  await page.keyboard.press("Escape");
  await expect(detail).toBeHidden();
  await expect(page).not.toHaveURL(/delivery=/);

  // --- an endpoint disabled after 3 days of failures --------------------------------------
  // Nobody waits 3 days: the state the worker leaves behind is written directly.
  await getDb().execute(sql`
    update webhook_endpoints
    set active = false, disabled_reason = 'failing', disabled_at = now(), failing_since = now() - interval '3 days'
    where environment = 'sandbox' and partner_id = (select partner_id from users where email = ${partner.email})`);
  await page.reload();
  const banner = page.getByTestId("failing-banner");
  await expect(banner).toContainText("Deliveries stopped: every attempt failed for 3 days since");
  await expect(page.getByTestId("endpoint-status")).toHaveText("Disabled after failures");
  await expect(page.getByRole("button", { name: "Send test event" })).toBeDisabled();
  await expect(banner.getByRole("checkbox", { name: "Resend what failed while disabled" })).toBeChecked();
  await expectAccessible(page, "webhooks auto-disabled banner");
  await saveScreenshots(page, "webhooks-disabled-banner");
  await banner.getByRole("button", { name: "Re-enable" }).click();
  await expect(page.getByText("Endpoint re-enabled").first()).toBeVisible();
  await expect(page.getByText(/\d+ deliver(y|ies) queued\./).first()).toBeVisible();
  await expect(page.getByTestId("endpoint-status")).toHaveText("Active");
  await expect(banner).toBeHidden();
  await expect(page.getByRole("button", { name: "Send test event" })).toBeEnabled();
});

test("disabling by hand asks first and offers a plain Enable", async ({ page }) => {
  await signUpNewPartner(page);
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Endpoint URL").fill(`http://127.0.0.1:${port}/other`);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("endpoint-status")).toHaveText("Active");

  await page.getByRole("button", { name: "Disable", exact: true }).click();
  const confirm = page.getByRole("alertdialog", { name: "Disable this endpoint?" });
  await expectAccessible(page, "disable confirmation");
  await confirm.getByRole("button", { name: "Disable endpoint" }).click();
  await expect(page.getByTestId("endpoint-status")).toHaveText("Disabled by you");
  await expect(page.getByTestId("failing-banner")).toHaveCount(0);
  await page.getByRole("button", { name: "Enable", exact: true }).click();
  await expect(page.getByTestId("endpoint-status")).toHaveText("Active");

  // The Events page's empty state points at the test event.
  await page.goto("/dashboard/events");
  await expect(page.getByText("No events yet")).toBeVisible();
  await expectAccessible(page, "events, none yet");
  await page.getByRole("link", { name: "Send a test event" }).click();
  await expect(page.getByRole("dialog", { name: "Send a test event" })).toBeVisible();
});
