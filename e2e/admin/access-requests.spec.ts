import { expect, test } from "@playwright/test";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "../dashboard/helpers";

// Staff in the admin console: a new partner asks for production access from
// their Organisation page, staff approve it with a reason in another browser,
// and the partner sees the decision and creates a live key. Partner users get
// the not-found page at /admin.

const STAFF = { email: "admin@example.com", password: "admin-password" };

test("staff approve a production-access request; the partner then creates a live key", async ({ page, browser, baseURL }) => {
  const partner = await signUpNewPartner(page);

  // Not for partners: the console does not exist for them.
  const hidden = await page.goto("/admin");
  expect(hidden?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Admin console" })).toHaveCount(0);

  await page.goto("/dashboard/organisation");
  const access = page.getByTestId("production-access");
  await access.getByLabel("Website").fill("https://console-test.example");
  await access.getByLabel("Use case").fill(`Reseller ${partner.company}: we sell premium domains to our hosting customers.`);
  await access.getByLabel("Expected monthly orders").fill("75");
  await access.getByRole("button", { name: "Request production access" }).click();
  await expect(access.getByTestId("access-status")).toHaveText("Pending");

  // Staff, in their own browser.
  const staffContext = await browser.newContext({ baseURL });
  const staff = await staffContext.newPage();
  await staff.goto("/sign-in");
  await staff.getByLabel("Email").fill(STAFF.email);
  await staff.getByLabel("Password").fill(STAFF.password);
  await staff.getByRole("button", { name: "Sign in" }).click();
  await expect(staff).toHaveURL(/\/admin$/);
  await expect(staff.getByRole("heading", { name: "Admin console", level: 1 })).toBeVisible();
  await expectAccessible(staff, "admin overview");
  await saveScreenshots(staff, "admin-overview");

  await staff.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Access requests" }).click();
  await staff.getByLabel("Status").selectOption("pending");
  await expect(staff).toHaveURL(/status=pending/);
  const request = staff.getByTestId("access-request").filter({ hasText: partner.company });
  await expect(request).toContainText("https://console-test.example");
  await expectAccessible(staff, "access requests");
  await saveScreenshots(staff, "admin-access-requests");

  await request.getByRole("button", { name: "Approve" }).click();
  const confirm = staff.getByRole("alertdialog", { name: `Approve ${partner.company} for production?` });
  await expect(confirm.getByRole("button", { name: "Approve production access" })).toBeDisabled();
  await confirm.getByLabel(/Reason/).fill("Website and volumes check out.");
  await expectAccessible(staff, "approve confirmation");
  await confirm.getByRole("button", { name: "Approve production access" }).click();
  await expect(confirm).toBeHidden();
  await expect(request).toHaveCount(0); // gone from the pending filter
  await staff.getByLabel("Status").selectOption("approved");
  await expect(staff.getByTestId("access-request").filter({ hasText: partner.company })).toContainText("Website and volumes check out.");
  const partnerId = (await staff.getByTestId("access-request").filter({ hasText: partner.company }).getAttribute("data-partner-id"))!;
  await staff.goto(`/admin/audit?action=partner.production_access_approved&partnerId=${partnerId}`);
  const entry = staff.getByTestId("audit-entry");
  await expect(entry).toHaveCount(1);
  await expect(entry.getByTestId("audit-change")).toContainText("pending");
  await expect(entry.getByTestId("audit-change")).toContainText("approved");
  await expect(entry).toContainText("admin@example.com");

  // The partner's page, found by search: live approved, its sandbox key and requests.
  await staff.goto("/admin/partners");
  await staff.getByLabel("Name, email or id").fill(partner.email);
  await staff.getByRole("button", { name: "Search", exact: true }).click();
  await expect(staff.getByRole("link", { name: partner.company })).toBeVisible();
  await expectAccessible(staff, "admin partners");
  await saveScreenshots(staff, "admin-partners");
  await staff.getByRole("link", { name: partner.company }).click();
  await expect(staff.getByRole("heading", { name: partner.company, level: 1 })).toBeVisible();
  await expect(staff.getByText("Live approved")).toBeVisible();
  await expectAccessible(staff, "admin partner page");
  await saveScreenshots(staff, "admin-partner");
  await staffContext.close();

  // The partner sees the decision and creates a live key.
  await page.reload();
  await expect(access.getByTestId("access-status")).toHaveText("Approved");
  await page.goto("/dashboard/keys");
  await page.getByTestId("environment-switch").getByRole("button", { name: "live" }).click();
  await page.getByRole("button", { name: "Create live key" }).first().click();
  const form = page.getByRole("dialog", { name: "Create a live key" });
  await form.getByLabel("Name").fill("Production server");
  await form.getByRole("button", { name: "Create key" }).click();
  const created = page.getByRole("dialog", { name: "Your new live key" });
  await expect(created.getByTestId("new-key-id")).toHaveText(/^pk_live_/);
  await created.getByRole("button", { name: "I have stored it" }).click();
  await page.getByTestId("environment-switch").getByRole("button", { name: "sandbox" }).click();
});
