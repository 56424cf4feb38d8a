import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { users } from "@/db/schema";
import { addDomain } from "@/server/services/inventory";
import { setAffiliate } from "@/server/services/referrals";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "./helpers";

// The Growth pages. Links: a new partner is not an affiliate and is told so;
// staff enable the program; the partner creates a domain link, copies it, a
// visitor follows it in another browser and the click shows in the link's
// detail; the visitor buys the domain, and the checkout, the sale and the
// accrued commission show in the detail, the list, the funnel and the ledger. Brokerage: an ineligible (listed) domain is
// refused with its reason, an eligible one becomes a case that opens at once,
// its progress link is copied and opened by the buyer without signing in.

const tag = () => randomBytes(4).toString("hex");
/** Listed for sale: the link's destination (the visitor buys it). */
const listed = `e2egrowth${tag()}.com`;
/** Listed too, and left unsold: the brokerage eligibility check refuses it. */
const stillListed = `e2egrowthlisted${tag()}.com`;
const PRICE = 1_290_00;

test.beforeAll(async () => {
  await addDomain(getDb(), { environment: "sandbox", name: listed, priceCents: PRICE });
  await addDomain(getDb(), { environment: "sandbox", name: stillListed, priceCents: PRICE });
  await closeDb();
});

test.beforeEach(async ({ context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
});

/** Staff step (what the admin console/CLI does): the partner behind `email` joins the affiliate program. */
async function enableAffiliateFor(email: string): Promise<void> {
  const db = getDb();
  const [user] = await db.select({ partnerId: users.partnerId }).from(users).where(eq(users.email, email));
  if (!user?.partnerId) throw new Error(`no partner user ${email}`);
  await setAffiliate(db, { partnerId: user.partnerId, isAffiliate: true }, { type: "admin", id: "e2e-growth" });
  await closeDb();
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** A client address of its own, so the per-address click limit never meets another spec's clicks. */
const visitorHeaders = () => ({ "x-forwarded-for": `198.51.100.${1 + Math.floor(Math.random() * 250)}` });

test("an affiliate creates a referral link, a visitor follows it and the click is counted", async ({ page, browser }) => {
  const partner = await signUpNewPartner(page);

  // Not an affiliate yet: the rule in words instead of a form.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Links" }).click();
  await expect(page).toHaveURL(/\/dashboard\/links$/);
  await expect(page.getByTestId("affiliate-required")).toContainText("Referral links need an affiliate account");
  await expect(page.getByRole("button", { name: "Create link" })).toHaveCount(0);
  await expectAccessible(page, "links without an affiliate account");

  await enableAffiliateFor(partner.email);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Referral links" })).toBeVisible();
  await expect(page.getByText("No sandbox links yet")).toBeVisible();
  await expect(page.getByTestId("funnel-clicks").getByTestId("funnel-value")).toHaveText("0");
  await expectAccessible(page, "links, empty");

  // A domain link: an unlisted domain is refused on the field, the listed one is accepted.
  await page.getByRole("button", { name: "Create link" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create a referral link" });
  await dialog.getByLabel(/One domain/).check();
  await dialog.getByLabel("Domain", { exact: true }).fill(`not-listed-${tag()}.com`);
  await dialog.getByLabel("Campaign label (optional)").fill("Spring newsletter");
  await expectAccessible(page, "create link dialog");
  await saveScreenshots(page, "link-create");
  await dialog.getByRole("button", { name: "Create link" }).click();
  await expect(dialog.getByText("must be a domain listed in this environment")).toBeVisible();
  await expect(dialog.getByLabel("Domain", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("Domain", { exact: true }).fill(listed);
  await dialog.getByRole("button", { name: "Create link" }).click();

  // The new link opens (?link=) with its URL to copy.
  await expect(page).toHaveURL(/[?&]link=lnk_/);
  const detail = page.getByTestId("link-detail");
  await expect(page.getByRole("dialog", { name: "Spring newsletter" })).toBeVisible();
  const url = (await detail.getByTestId("detail-url").textContent())!.trim();
  expect(url).toMatch(/\/r\/[0-9A-Za-z]{10}$/);
  await expect(detail).toContainText(`/domains/${listed}`);
  await expect(detail.getByTestId("detail-clicks")).toHaveText("0");
  await detail.getByRole("button", { name: "Copy link" }).click();
  await expect(detail.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await clipboard(page)).toBe(url);

  // A visitor in a browser of their own follows the link to the domain's page.
  const visitor = await browser.newContext({ extraHTTPHeaders: visitorHeaders() });
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(url);
  await expect(visitorPage).toHaveURL(new RegExp(`/domains/${listed.replace(".", "\\.")}$`));
  await expect(visitorPage.getByRole("heading", { level: 1 })).toHaveText(listed);

  // Back in the dashboard the click is counted: in the detail and its chart.
  await page.reload();
  await expect(detail.getByTestId("detail-clicks")).toHaveText("1");
  await expect(detail.getByTestId("clicks-chart")).toContainText("1 click in 30 days");
  await expect(detail).toContainText("No sales through this link yet");

  // The visitor buys the domain with a test card: a checkout and a sale of the link.
  await visitorPage.getByRole("button", { name: "Buy now" }).click();
  await expect(visitorPage).toHaveURL(/\/checkout\?pt=cs_/);
  await visitorPage.getByLabel("Email").fill("ada@example.com");
  await visitorPage.getByLabel("Full name").fill("Ada Lovelace");
  await visitorPage.getByLabel("Country").selectOption("GB");
  await visitorPage.getByLabel("Card number").fill("4242 4242 4242 4242");
  await visitorPage.getByLabel("Expiry (MM/YY)").fill("12/34");
  await visitorPage.getByLabel("CVC").fill("123");
  await visitorPage.getByRole("button", { name: /^Pay/ }).click();
  await expect(visitorPage.getByTestId("checkout-paid")).toBeVisible();
  await visitor.close();

  await page.reload();
  await expect(detail.getByTestId("detail-clicks")).toHaveText("1");
  await expect(detail.getByTestId("detail-checkouts")).toHaveText("1");
  await expect(detail.getByTestId("detail-sales")).toHaveText("1");
  await expect(detail.getByTestId("detail-commission")).toHaveText("$129.00"); // 10% of $1,290.00
  await expect(detail.getByTestId("link-sales")).toContainText("ada@example.com");
  await expectAccessible(page, "link detail");
  await saveScreenshots(page, "link-detail");

  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/link=/);
  const row = page.getByTestId("link-row").filter({ hasText: "Spring newsletter" });
  await expect(row.getByTestId("link-clicks")).toHaveText("1");
  await expect(row.getByTestId("link-sales-count")).toHaveText("1");
  await expect(row.getByTestId("link-url")).toHaveText(url.replace(/^https?:\/\//, ""));
  for (const stage of ["clicks", "checkouts", "sales"]) {
    await expect(page.getByTestId(`funnel-${stage}`).getByTestId("funnel-value")).toHaveText("1");
  }
  await expect(page.getByTestId("funnel-summary")).toContainText("commission $129.00");
  await expectAccessible(page, "links");
  await saveScreenshots(page, "links");

  // The period and the tabs live in the URL; the ledger's state filter too.
  await page.getByLabel("Period").selectOption("7d");
  await expect(page).toHaveURL(/period=7d/);
  await expect(page.getByTestId("funnel-clicks").getByTestId("funnel-value")).toHaveText("1");
  await page.getByRole("tab", { name: "Commission ledger" }).click();
  await expect(page).toHaveURL(/tab=commissions/);
  const entry = page.getByTestId("commission-row");
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("Accrued");
  await expect(entry).toContainText("$129.00");
  await expect(page.getByTestId("commission-totals")).toContainText("Owed to you$129.00");
  await page.getByLabel("State").selectOption("accrued");
  await expect(page).toHaveURL(/state=accrued/);
  await expect(entry).toHaveCount(1);
  await page.getByLabel("State").selectOption("paid_out");
  await expect(page.getByText("No paid out commission")).toBeVisible();
  await page.getByLabel("State").selectOption("accrued");
  await expectAccessible(page, "commission ledger");
  await saveScreenshots(page, "links-ledger");
  await page.getByRole("tab", { name: "Payouts" }).click();
  await expect(page).toHaveURL(/tab=payouts/);
  await expect(page).not.toHaveURL(/state=/);
  await expect(page.getByText("No referral payouts yet")).toBeVisible();
  await expectAccessible(page, "referral payouts");
});

test("a partner checks eligibility, opens a brokerage case and the buyer opens its progress link", async ({ page, browser }) => {
  await signUpNewPartner(page);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Brokerage" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Brokerage" })).toBeVisible();
  await expect(page.getByText("No sandbox brokerage cases yet")).toBeVisible();
  await expect(page.getByText(/your share of it is 20%/)).toBeVisible();
  await expectAccessible(page, "brokerage, empty");

  await page.getByRole("button", { name: "New case" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Open a brokerage case" });

  // A listed domain is bought, not brokered: the reason is shown and there is no case form.
  await dialog.getByLabel("Domain", { exact: true }).fill(stillListed);
  await dialog.getByRole("button", { name: "Check eligibility" }).click();
  const result = dialog.getByTestId("eligibility-result");
  await expect(result.locator("[data-eligible=false]")).toContainText(`${stillListed} cannot be brokered now`);
  await expect(result.locator("[data-reason=listed]")).toContainText("listed in the inventory");
  await expect(dialog.getByTestId("case-form")).toHaveCount(0);
  await expectAccessible(page, "eligibility refused");
  await saveScreenshots(page, "brokerage-ineligible");

  // A .test name is answered without DNS: eligible, then the case form.
  const domain = `e2e-growth-${tag()}.test`;
  await dialog.getByLabel("Domain", { exact: true }).fill(domain);
  await dialog.getByRole("button", { name: "Check eligibility" }).click();
  await expect(result.locator("[data-eligible=true]")).toContainText(`${domain} can be brokered`);
  const form = dialog.getByTestId("case-form");
  await form.getByLabel(/Self-serve/).check();
  await form.getByLabel("Buyer's email").fill("buyer@example.com");
  await form.getByLabel("Buyer's budget").fill("abc");
  await expectAccessible(page, "case form");
  await saveScreenshots(page, "brokerage-new-case");
  await form.getByRole("button", { name: "Open case" }).click();
  await expect(form.getByText("Enter the buyer's budget")).toBeVisible();
  await form.getByLabel("Buyer's budget").fill("12,500");
  await form.getByLabel("Currency").selectOption("EUR");
  await form.getByRole("button", { name: "Open case" }).click();

  // The created case opens (?case=) with its timeline and the buyer's progress link.
  await expect(page).toHaveURL(/[?&]case=bc_/);
  const detail = page.getByTestId("case-detail");
  await expect(page.getByRole("dialog", { name: domain })).toBeVisible();
  await expect(detail.getByTestId("case-status")).toHaveAttribute("data-status", "OPEN");
  await expect(detail.getByTestId("case-timeline").getByRole("listitem")).toHaveCount(1);
  await expect(detail).toContainText("€12,500.00");
  await expect(page.getByRole("dialog", { name: domain })).toContainText("Self-serve brokerage");
  const progressUrl = (await detail.getByTestId("progress-url").textContent())!.trim();
  expect(progressUrl).toMatch(/\/brokerage\/[A-Za-z0-9_-]{43}$/);
  await detail.getByRole("button", { name: "Copy progress link" }).click();
  await expect(detail.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await clipboard(page)).toBe(progressUrl);
  await expectAccessible(page, "brokerage case");
  await saveScreenshots(page, "brokerage-case");

  // The buyer, not signed in, opens the copied link.
  const buyer = await browser.newContext();
  const buyerPage = await buyer.newPage();
  const response = await buyerPage.goto(progressUrl);
  expect(response?.status()).toBe(200);
  await expect(buyerPage.getByRole("heading", { level: 1 })).toHaveText(domain);
  await expect(buyerPage.getByTestId("case-status")).toHaveAttribute("data-status", "OPEN");
  await buyer.close();

  // The list, and its status filter in the URL.
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/case=/);
  const row = page.getByTestId("case-row").filter({ hasText: domain });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("case-status")).toHaveText("Open");
  await page.getByLabel("Status").selectOption("COMPLETED");
  await expect(page).toHaveURL(/status=COMPLETED/);
  await expect(page.getByText("No cases with this status")).toBeVisible();
  await page.getByLabel("Status").selectOption({ label: "In progress" });
  await expect(page).toHaveURL(/status=OPEN%2CRESEARCHING%2CNEGOTIATING|status=OPEN,RESEARCHING,NEGOTIATING/);
  await expect(row).toBeVisible();
  await expectAccessible(page, "brokerage");
  await saveScreenshots(page, "brokerage");

  // Opening the row again is the same case.
  await row.getByTestId("case-open").click();
  await expect(page.getByRole("dialog", { name: domain })).toBeVisible();
});
