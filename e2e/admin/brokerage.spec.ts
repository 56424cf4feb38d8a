import { expect, test } from "@playwright/test";
import { closeDb, getDb } from "@/db/client";
import { createBrokerageCase, progressUrl } from "@/server/services/brokerage";
import { createPartner } from "@/server/services/partners";
import { setSiteProbe } from "@/server/services/site-probe";
import { expectAccessible, saveScreenshots } from "../dashboard/helpers";

// The brokerage queue in the console: staff open a partner's case, leave the
// buyer a note and move it on; the buyer's public progress page shows both.

const STAFF = { email: "admin@example.com", password: "admin-password" };

test.beforeAll(() => setSiteProbe(async () => ({ active: false, detail: "e2e: no site" })));
test.afterAll(async () => {
  setSiteProbe();
  await closeDb();
});

test("staff move a brokerage case with notes the buyer reads", async ({ page, browser }) => {
  const tag = Date.now().toString(36);
  const partner = await createPartner(getDb(), { name: `Broker Partner ${tag}`, email: `broker-${tag}@partner.example`, paymentModel: "mor" });
  const { row } = await createBrokerageCase(getDb(), {
    partnerId: partner.partnerId,
    environment: "sandbox",
    domain: `wanted-${tag}.com`,
    tier: "managed",
    buyerEmail: "buyer@sandbox.example",
    budgetCents: 400_000,
    currency: "USD",
    actor: { type: "partner" },
  });

  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(STAFF.email);
  await page.getByLabel("Password").fill(STAFF.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Brokerage" }).click();
  await expect(page.getByRole("heading", { name: "Brokerage queue", level: 1 })).toBeVisible();
  await expectAccessible(page, "brokerage queue");
  await saveScreenshots(page, "admin-brokerage");
  await page.getByRole("link", { name: row.domain }).click();
  await expect(page.getByRole("heading", { name: row.domain, level: 1 })).toBeVisible();

  await page.getByLabel("Note for the buyer, without a move").fill("We found the owner and wrote to them today.");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByTestId("case-timeline")).toContainText("We found the owner and wrote to them today.");
  await page.getByRole("button", { name: "Move to RESEARCHING" }).click();
  const dialog = page.getByRole("alertdialog");
  await dialog.getByLabel(/Note for the buyer/).fill("Research started: checking the owner's other names.");
  await expectAccessible(page, "brokerage move confirmation");
  await dialog.getByRole("button", { name: "Move to RESEARCHING" }).click();
  await expect(page.getByTestId("case-status")).toHaveText("RESEARCHING");
  await expectAccessible(page, "brokerage case");
  await saveScreenshots(page, "admin-brokerage-case");

  // Other console pages pass the accessibility check too.
  for (const path of ["/admin/partners", "/admin/settlements", "/admin/audit", "/admin/orders"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page, path);
  }

  const buyer = await browser.newContext();
  const progress = await buyer.newPage();
  await progress.goto(progressUrl(row.id).replace(/^https?:\/\/[^/]+/, page.url().replace(/^(https?:\/\/[^/]+).*$/, "$1")));
  await expect(progress.getByText("We found the owner and wrote to them today.")).toBeVisible();
  await expect(progress.getByText("Research started: checking the owner's other names.")).toBeVisible();
  await buyer.close();
});
