import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { closeDb, getDb } from "@/db/client";

// Shared steps of the dashboard's browser tests: a fresh partner from the
// sign-up page, the accessibility check every page must pass, and the desktop
// and phone screenshots the e2e run saves for people to look at.

export interface NewPartner {
  company: string;
  email: string;
  password: string;
}

let counter = 0;

/** Signs up a new partner organisation through /partners/sign-up and lands on the dashboard. */
export async function signUpNewPartner(page: Page, options: { paymentModel?: "mor" | "non_mor" } = {}): Promise<NewPartner> {
  const tag = `${Date.now().toString(36)}${(counter++).toString(36)}`;
  const partner = { company: `E2E Partner ${tag}`, email: `e2e-${tag}@partner.example`, password: `pw-${tag}-long-enough` };
  await page.goto("/partners/sign-up");
  await page.getByLabel("Company").fill(partner.company);
  await page.getByLabel("Your name").fill("E2E Tester");
  await page.getByLabel("Work email").fill(partner.email);
  await page.getByLabel("Password").fill(partner.password);
  if (options.paymentModel === "mor") await page.getByLabel(/Merchant of record/).check();
  await page.getByRole("button", { name: "Create partner account" }).click();
  await page.waitForURL(/\/dashboard/);
  return partner;
}

/** Staff grant: production access for the partner behind `email` (what the admin console/CLI does). */
export async function approveLiveFor(email: string): Promise<void> {
  const { approveLive } = await import("@/server/services/partners");
  const { users } = await import("@/db/schema");
  const { eq } = await import("drizzle-orm");
  const db = getDb();
  const [user] = await db.select({ partnerId: users.partnerId }).from(users).where(eq(users.email, email));
  if (!user?.partnerId) throw new Error(`no partner user ${email}`);
  await approveLive(db, { partnerId: user.partnerId });
  await closeDb();
}

/** No serious or critical axe violations on the page as it is now. */
export async function expectAccessible(page: Page, context: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const summary = serious.map((v) => `${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, `accessibility violations on ${context}`).toEqual([]);
}

/** Full-page screenshots at desktop and phone width, in test-results/screenshots. */
export async function saveScreenshots(page: Page, name: string): Promise<void> {
  const desktop = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.screenshot({ path: `test-results/screenshots/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: `test-results/screenshots/${name}-phone.png`, fullPage: true });
  await page.setViewportSize(desktop);
}
