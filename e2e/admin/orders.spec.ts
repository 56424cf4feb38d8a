import { expect, test } from "@playwright/test";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { users } from "@/db/schema";
import { addDomain } from "@/server/services/inventory";
import { createOrder } from "@/server/services/orders";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "../dashboard/helpers";
import { Receiver } from "../dashboard/receiver";

// Staff move a held sale through review to a completed transfer in the admin
// console, a reason with each move; the partner's endpoint receives each
// webhook and the partner's order page shows the reasons on the timeline.

const STAFF = { email: "admin@example.com", password: "admin-password" };
const receiver = new Receiver();
let port = 0;

test.beforeAll(async () => {
  port = await receiver.start();
});

test.afterAll(async () => {
  await receiver.stop();
  await closeDb();
});

test("staff clear a held order, transfer it, and the partner sees every step", async ({ page, browser, baseURL }) => {
  test.slow(); // two browsers and many steps on a 2-core machine
  const partner = await signUpNewPartner(page, { paymentModel: "mor" });
  const [user] = await getDb().select().from(users).where(eq(users.email, partner.email));
  const partnerId = user!.partnerId!;
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Endpoint URL").fill(`http://127.0.0.1:${port}/hooks`);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("endpoint-status")).toHaveText("Active");
  // A sale above the risk threshold, recorded by the service POST /orders calls: held for review.
  const domain = `held-${Date.now().toString(36)}.com`;
  await addDomain(getDb(), { environment: "sandbox", name: domain, priceCents: 1_500_000 });
  const { order } = await createOrder(getDb(), {
    partnerId,
    environment: "sandbox",
    domain,
    expectedPriceCents: 1_500_000,
    currency: "USD",
    buyer: { email: "big-buyer@example.com", name: "Big Buyer" },
    actor: { type: "partner", id: user!.id },
  });
  expect(order.status).toBe("MANUAL_REVIEW");
  await receiver.next("order.recorded");

  const staffContext = await browser.newContext({ baseURL });
  const staff = await staffContext.newPage();
  await staff.goto("/sign-in");
  await staff.getByLabel("Email").fill(STAFF.email);
  await staff.getByLabel("Password").fill(STAFF.password);
  await staff.getByRole("button", { name: "Sign in" }).click();
  await expect(staff).toHaveURL(/\/admin$/);

  await staff.goto("/admin/orders?status=MANUAL_REVIEW");
  await expect(staff.getByRole("heading", { name: "Manual review queue", level: 1 })).toBeVisible();
  await staff.getByLabel("Domain").fill(domain);
  await staff.getByRole("button", { name: "Search", exact: true }).click();
  await expect(staff).toHaveURL(/q=held-/);
  await expectAccessible(staff, "admin manual review queue");
  await saveScreenshots(staff, "admin-orders-review");
  await staff.getByRole("link", { name: domain }).click();
  await expect(staff.getByRole("heading", { name: domain, level: 1 })).toBeVisible();
  await expectAccessible(staff, "admin order page");
  await saveScreenshots(staff, "admin-order");

  const steps = [
    { button: "Approve (clear review)", confirm: "Clear review", reason: "Buyer identity verified by phone.", event: "order.manual_review_cleared" },
    { button: "Start transfer", confirm: "Start transfer", reason: "Auth code sent to the buyer's registrar.", event: "order.transfer_started" },
    { button: "Complete transfer", confirm: "Complete transfer", reason: "Registrar confirmed the transfer.", event: "order.transfer_completed" },
  ];
  for (const [index, step] of steps.entries()) {
    await staff.getByRole("button", { name: step.button }).click();
    const dialog = staff.getByRole("alertdialog");
    await expect(dialog.getByRole("button", { name: step.confirm, exact: true })).toBeDisabled();
    await dialog.getByLabel(/Reason/).fill(step.reason);
    if (index === 0) await expectAccessible(staff, "move confirmation");
    await dialog.getByRole("button", { name: step.confirm, exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(staff.getByTestId("staff-timeline")).toContainText(step.reason);
    const delivered = await receiver.next(step.event);
    expect(delivered.body).toContain(order.id);
  }
  await expect(staff.getByText("None by hand: the order is waiting for its settlement run")).toBeVisible();

  // Each move in the audit viewer, with its before and after.
  await staff.goto(`/admin/audit?targetId=${order.id}&actorType=admin`);
  const entries = staff.getByTestId("audit-entry");
  await expect(entries).toHaveCount(3);
  await expect(entries.first()).toHaveAttribute("data-action", "order.complete_transfer");
  await expect(entries.first().getByTestId("audit-change")).toContainText("TRANSFER_IN_PROGRESS");
  await expect(entries.first().getByTestId("audit-change")).toContainText("TRANSFER_COMPLETED");
  await expect(entries.first()).toContainText("Registrar confirmed the transfer.");
  await expectAccessible(staff, "audit viewer");
  await saveScreenshots(staff, "admin-audit");

  // Settle it: preview (nothing written), then run for this partner's sandbox, closing the running month early.
  const now = new Date();
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
  await staff.goto("/admin/settlements");
  await staff.getByLabel(/Close periods ended before/).fill(nextMonth);
  await staff.getByLabel(/Partner id/).fill(partnerId);
  await staff.getByLabel("Environment of that partner").selectOption("sandbox");
  await staff.getByRole("button", { name: "Preview" }).click();
  await expect(staff.getByRole("heading", { name: "Preview: a run now would close" })).toBeVisible();
  const statements = staff.getByTestId("run-statements");
  await expect(statements).toContainText(partner.company);
  await expect(statements).toContainText("$15,000.00");
  await expectAccessible(staff, "settlement preview");
  await saveScreenshots(staff, "admin-settlement-preview");
  await staff.getByRole("button", { name: "Run settlement" }).click();
  const runDialog = staff.getByRole("alertdialog");
  await runDialog.getByLabel(/Reason/).fill("Closing the test partner's month early.");
  await runDialog.getByRole("button", { name: "Run settlement" }).click();
  await expect(staff.getByRole("heading", { name: "Closed" })).toBeVisible();
  expect((await receiver.next("order.settled")).body).toContain(order.id);
  // The run is in the audit viewer with its reason.
  await staff.goto(`/admin/audit?action=settlement.run&partnerId=${partnerId}`);
  await expect(staff.getByTestId("audit-entry").filter({ hasText: "Closing the test partner's month early." })).toHaveCount(1);
  await staffContext.close();

  // The partner sees the statement the run closed.
  await page.goto("/dashboard/finance?tab=settlements");
  await expect(page.getByTestId("statement-row")).toHaveCount(1);
  await expect(page.getByTestId("statement-row")).toContainText("$15,000.00");

  // The partner's order page: the staff reasons on the timeline.
  await page.goto(`/dashboard/orders/${order.id}`);
  for (const step of steps) await expect(page.getByText(step.reason)).toBeVisible();
  await expect(page.getByTestId("order-status").first()).toHaveAttribute("data-status", "SETTLED");
});
