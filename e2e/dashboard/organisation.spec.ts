import { expect, test } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { productionAccessRequests, users } from "@/db/schema";
import { decideProductionAccess } from "@/server/services/account";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "./helpers";

// The organisation page: a new partner sees its account and terms, asks for
// production access (a bad website is refused field by field), waits while the
// request is pending, sees staff's note after a decline, asks again, and sees
// the approval once staff decide it.

test("a partner requests production access and sees it pending, then approved", async ({ page }) => {
  const partner = await signUpNewPartner(page);

  await page.goto("/dashboard/organisation");
  await expect(page.getByRole("heading", { level: 1, name: "Organisation" })).toBeVisible();
  const card = page.getByTestId("organisation-card");
  await expect(card.getByRole("heading", { name: partner.company })).toBeVisible();
  await expect(card).toContainText(partner.email);
  await expect(card.getByTestId("payment-model")).toHaveText("Hosted checkout");
  await expect(card.getByTestId("partner-id")).toHaveText(/\S+/);
  await expect(card.getByRole("button", { name: "Copy partner id" })).toBeVisible();
  await expect(card).toContainText("10%"); // the default sale commission, 1000 bps

  const access = page.getByTestId("production-access");
  await expect(access.getByTestId("access-status")).toHaveText("Sandbox only");
  await expectAccessible(page, "organisation with the access form");
  await saveScreenshots(page, "organisation-form");

  // A website that is not a URL: the server's message under the field, nothing sent.
  await access.getByLabel("Website").fill("not a website");
  await access.getByLabel("Use case").fill("We run a startup naming tool and want to sell premium domains beside our suggestions.");
  await access.getByLabel("Expected monthly orders").fill("120");
  await access.getByRole("button", { name: "Request production access" }).click();
  await expect(access.getByText("Enter a URL such as https://example.com")).toBeVisible();
  await expect(access.getByLabel("Website")).toHaveAttribute("aria-invalid", "true");
  await expect(access.getByTestId("access-status")).toHaveText("Sandbox only");

  await access.getByLabel("Website").fill("https://names.example");
  await access.getByRole("button", { name: "Request production access" }).click();
  await expect(access.getByTestId("access-status")).toHaveText("Pending");
  await expect(access).toContainText("https://names.example");
  await expect(access).toContainText("startup naming tool");
  await expect(access).toContainText("120");
  await expect(access.getByTestId("access-form")).toHaveCount(0);
  await expectAccessible(page, "organisation with a pending request");
  await saveScreenshots(page, "organisation-pending");

  // Staff decline once, with a note: the note shows above a fresh form.
  await decide(partner.email, "declined", "Tell us more about the naming tool's traffic.");
  await page.reload();
  await expect(access.getByTestId("access-declined")).toContainText("Tell us more about the naming tool's traffic.");
  await expect(access.getByTestId("access-status")).toHaveText("Sandbox only");
  await access.getByLabel("Website").fill("https://names.example");
  await access.getByLabel("Use case").fill("A naming tool with 40,000 monthly visitors; we list premium domains beside each suggestion.");
  await access.getByLabel("Expected monthly orders").fill("150");
  await access.getByRole("button", { name: "Request production access" }).click();
  await expect(access.getByTestId("access-status")).toHaveText("Pending");
  await expect(access).toContainText("40,000 monthly visitors");

  // Staff approve (what `npm run admin -- partner:access-decide` does).
  await decide(partner.email, "approved");
  await page.reload();
  await expect(access.getByTestId("access-status")).toHaveText("Approved");
  await expect(access).toContainText(/Approved \w{3} \d{1,2}, \d{4}: you can create live keys/);
  await expect(access.getByRole("link", { name: "Go to API keys" })).toHaveAttribute("href", "/dashboard/keys");
  await expectAccessible(page, "organisation approved");
  await saveScreenshots(page, "organisation-approved");
});

/** Decides the partner's pending production access request as staff would. */
async function decide(email: string, decision: "approved" | "declined", note?: string): Promise<void> {
  const db = getDb();
  const [user] = await db.select({ partnerId: users.partnerId }).from(users).where(eq(users.email, email));
  const [pending] = await db
    .select({ id: productionAccessRequests.id })
    .from(productionAccessRequests)
    .where(and(eq(productionAccessRequests.partnerId, user!.partnerId!), eq(productionAccessRequests.status, "pending")));
  expect(pending, "a pending request").toBeDefined();
  await decideProductionAccess(db, { requestId: pending!.id, decision, note }, { type: "cli" });
  await closeDb();
}
