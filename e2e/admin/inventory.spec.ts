import { expect, test, type Page } from "@playwright/test";
import { and, eq, like } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { auditLog, domains } from "@/db/schema";
import { expectAccessible, saveScreenshots } from "../dashboard/helpers";

// Staff run the inventory from the console: add a domain, reprice it, remove it
// after a confirmation naming it; then a CSV with a bad row is refused whole
// (the report names the line, nothing is written), fixed and imported.

const STAFF = { email: "admin@example.com", password: "admin-password" };
const tagOfRun = `e2einv${Date.now().toString(36)}`;

test.afterAll(async () => {
  await closeDb();
});

async function signInStaff(page: Page) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(STAFF.email);
  await page.getByLabel("Password").fill(STAFF.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

const listingsOf = (prefix: string) =>
  getDb()
    .select()
    .from(domains)
    .where(and(eq(domains.environment, "sandbox"), like(domains.name, `${prefix}%`)))
    .orderBy(domains.name);

test("staff add, reprice and remove a listing, each with a reason", async ({ page }) => {
  const tag = tagOfRun;
  const name = `${tag}-shop.com`;
  await signInStaff(page);
  await page.getByRole("link", { name: "Inventory" }).first().click();
  await expect(page.getByRole("heading", { name: "Inventory", level: 1 })).toBeVisible();
  await page.getByLabel("Environment", { exact: true }).selectOption("sandbox");
  await expect(page).toHaveURL(/env=sandbox/);
  await expect(page.getByTestId("inventory-counts")).toContainText("Sandbox:");

  await page.getByRole("button", { name: "Add domain" }).click();
  const add = page.getByRole("dialog", { name: "Add a domain to the sandbox inventory" });
  await add.getByLabel("Domain name").fill(name.toUpperCase());
  await add.getByLabel("Price", { exact: true }).fill("1,250");
  await add.getByLabel("Floor (optional)").fill("900.50");
  await expect(add.getByRole("button", { name: "Add domain" })).toBeDisabled();
  await add.getByLabel(/Reason/).fill("Bought at the spring auction");
  await expectAccessible(page, "add listing dialog");
  await add.getByRole("button", { name: "Add domain" }).click();
  await expect(add).toBeHidden();

  await page.getByLabel("Domain", { exact: true }).fill(tag);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`q=${tag}`));
  const row = page.locator(`[data-testid="staff-listing"][data-domain="${name}"]`);
  await expect(row.getByTestId("listing-price")).toContainText("$1,250.00");
  await expect(row.getByTestId("listing-price")).toContainText("floor $900.50");
  await expect(row.getByTestId("listing-status")).toHaveText("Available");
  await expectAccessible(page, "admin inventory");
  await saveScreenshots(page, "admin-inventory");

  // The shared URL opens the same view.
  await page.goto(`/admin/inventory?env=sandbox&q=${tag}&status=listed`);
  await expect(page.locator('[data-testid="staff-listing"]')).toHaveCount(1);

  await row.getByRole("button", { name: `Reprice ${name}` }).click();
  const reprice = page.getByRole("dialog", { name: `Reprice ${name}` });
  await expect(reprice.getByLabel("Price", { exact: true })).toHaveValue("1250.00");
  await reprice.getByLabel("Price", { exact: true }).fill("1100");
  await reprice.getByLabel(/Reason/).fill("No offers in 90 days");
  await reprice.getByRole("button", { name: "Save price" }).click();
  await expect(reprice).toBeHidden();
  await expect(row.getByTestId("listing-price")).toContainText("$1,100.00");

  await row.getByRole("button", { name: `Remove ${name}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Remove ${name} from the sandbox inventory?` });
  await expect(confirm.getByRole("button", { name: "Remove listing" })).toBeDisabled();
  await confirm.getByLabel(/Reason/).fill("Owner withdrew it");
  await expectAccessible(page, "remove confirmation");
  await saveScreenshots(page, "admin-inventory-remove");
  await confirm.getByRole("button", { name: "Remove listing" }).click();
  await expect(confirm).toBeHidden();
  // The available-only view no longer has it; any status shows it removed.
  await expect(page.locator('[data-testid="staff-listing"]')).toHaveCount(0);
  await page.getByLabel("Status", { exact: true }).selectOption("");
  await expect(row.getByTestId("listing-status")).toHaveText("Removed");

  const [listing] = await listingsOf(name);
  const audits = await getDb().select().from(auditLog).where(eq(auditLog.targetId, listing!.id)).orderBy(auditLog.id);
  expect(audits.map((a) => [a.action, (a.data as { reason: string }).reason])).toEqual([
    ["domain.added", "Bought at the spring auction"],
    ["domain.repriced", "No offers in 90 days"],
    ["domain.removed", "Owner withdrew it"],
  ]);
});

test("a CSV with a bad row imports nothing and says which; fixed, it imports whole", async ({ page }) => {
  const tag = `${tagOfRun}imp`;
  const rows = [`${tag}-alpha.com,125000,90000,USD`, `${tag}-beta,48000,,`, `${tag}-gamma.io,7000,,EUR`];
  await signInStaff(page);
  await page.goto("/admin/inventory?env=sandbox");
  await page.getByRole("link", { name: "Import CSV" }).click();
  await expect(page.getByRole("heading", { name: "Import listings", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Into the inventory")).toHaveValue("sandbox");

  await page.getByLabel("CSV file").setInputFiles({
    name: "listings.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`name,price_cents,floor_cents,currency\n${rows.join("\n")}\n`),
  });
  await expect(page.getByLabel(/^Rows/)).toHaveValue(new RegExp(`${tag}-beta,48000`));
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByText("1 problem(s) in 3 row(s): nothing will be imported")).toBeVisible();
  const problem = page.getByTestId("import-problem");
  await expect(problem).toHaveCount(1);
  await expect(problem).toHaveAttribute("data-line", "3");
  await expect(problem).toContainText("not a valid domain name");
  await expect(page.getByRole("button", { name: /^Import \d+ domains/ })).toHaveCount(0);
  await expectAccessible(page, "import with a bad row");
  await saveScreenshots(page, "admin-inventory-import-problems");
  expect(await listingsOf(tag)).toEqual([]);

  // Fixed in place: the old report disappears, the check passes, the import is confirmed with a reason.
  rows[1] = `${tag}-beta.net,48000,,`;
  await page.getByLabel(/^Rows/).fill(`name,price_cents,floor_cents,currency\n${rows.join("\n")}\n`);
  await expect(page.getByTestId("import-problem")).toHaveCount(0);
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByTestId("import-summary")).toHaveText("3 new, 0 listed again, 0 repriced in the sandbox inventory.");
  await expectAccessible(page, "import ready");
  await saveScreenshots(page, "admin-inventory-import-ready");
  await page.getByRole("button", { name: "Import 3 domains into sandbox inventory" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Import 3 domains into the sandbox inventory?" });
  await confirm.getByLabel(/Reason/).fill("Registrar batch, checked by ops");
  await confirm.getByRole("button", { name: "Import 3 domains" }).click();
  await expect(page.getByText("Imported 3 domains into the sandbox inventory")).toBeVisible();
  expect((await listingsOf(tag)).map((d) => [d.name, d.priceCents, d.floorPriceCents, d.currency])).toEqual([
    [`${tag}-alpha.com`, 125000, 90000, "USD"],
    [`${tag}-beta.net`, 48000, null, "USD"],
    [`${tag}-gamma.io`, 7000, null, "EUR"],
  ]);

  await page.getByRole("link", { name: "See the sandbox inventory" }).click();
  await page.getByLabel("Domain", { exact: true }).fill(`${tag}-`);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("staff-listing")).toHaveCount(3);
  await expect(page.locator(`[data-domain="${tag}-gamma.io"]`).getByTestId("listing-price")).toContainText("€70.00");
});
