import { expect, test, type Browser, type Page } from "@playwright/test";
import { closeDb } from "@/db/client";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "../dashboard/helpers";

// Staff sign a partner's user out everywhere from the Users screen while that
// user has the dashboard open in another browser: their next navigation lands
// on sign-in. Then staff add a staff member, who signs in to the console with
// the password shown once.

const STAFF = { email: "admin@example.com", password: "admin-password" };

test.afterAll(async () => {
  await closeDb();
});

async function signInAs(browser: Browser, baseURL: string | undefined, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  return page;
}

test("staff sign a partner out everywhere, and add a staff member who can sign in", async ({ page, browser, baseURL }) => {
  test.setTimeout(150_000); // three browsers, several password hashes, on a shared 2-core machine
  const partner = await signUpNewPartner(page);
  await expect(page.getByTestId("signed-in-email")).toHaveText(partner.email);

  const staff = await signInAs(browser, baseURL, STAFF.email, STAFF.password);
  await expect(staff).toHaveURL(/\/admin$/);
  await staff.getByRole("link", { name: "Users" }).first().click();
  await expect(staff.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  await staff.getByLabel("Email, name or id").fill(partner.email);
  await staff.getByRole("button", { name: "Search", exact: true }).click();
  await expect(staff).toHaveURL(/q=e2e-/);
  const row = staff.getByTestId("staff-user");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("user-role")).toHaveText("Partner · Owner");
  await expect(row.getByRole("link", { name: partner.company })).toHaveAttribute("href", /\/admin\/partners\/ptn_/);
  await expectAccessible(staff, "admin users");
  await saveScreenshots(staff, "admin-users");

  await row.getByRole("link", { name: partner.email }).click();
  await expect(staff.getByRole("heading", { name: partner.email, level: 1 })).toBeVisible();
  await expectAccessible(staff, "admin user page");
  await saveScreenshots(staff, "admin-user");

  await staff.getByRole("button", { name: "Sign out everywhere" }).click();
  const dialog = staff.getByRole("alertdialog");
  await expect(dialog).toContainText(`Every browser signed in as ${partner.email}`);
  const confirm = dialog.getByRole("button", { name: "Sign out everywhere", exact: true });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Reason/).fill("Session cookie posted in a support ticket.");
  await expectAccessible(staff, "sign out everywhere confirmation");
  await saveScreenshots(staff, "admin-user-sign-out-dialog");
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(staff.getByText(`${partner.email} is signed out everywhere`).first()).toBeVisible();

  // The partner's browser still holds its cookie; the next navigation is refused.
  await page.getByRole("link", { name: "Orders" }).first().click();
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();

  // The audit viewer has it, with the reason.
  await staff.getByRole("link", { name: "Audit log for this user" }).click();
  const entry = staff.getByTestId("audit-entry").first();
  await expect(entry).toHaveAttribute("data-action", "user.signed_out_everywhere");
  await expect(entry).toContainText("Session cookie posted in a support ticket.");

  // A new staff member, with the password shown once.
  await staff.goto("/admin/users?role=admin");
  await staff.getByRole("button", { name: "Add staff" }).click();
  const addDialog = staff.getByRole("dialog");
  const newEmail = `ops-${Date.now().toString(36)}@marketplace.example`;
  await addDialog.getByLabel("Email").fill(newEmail);
  await addDialog.getByLabel(/Name/).fill("Ops Newcomer");
  await expectAccessible(staff, "add staff dialog");
  await addDialog.getByRole("button", { name: "Create staff login" }).click();
  const password = await addDialog.getByTestId("staff-password").inputValue();
  expect(password.length).toBeGreaterThanOrEqual(16);
  await saveScreenshots(staff, "admin-add-staff");
  await addDialog.getByRole("button", { name: "Done" }).click();
  await expect(staff.getByTestId("staff-user").filter({ hasText: newEmail }).getByTestId("user-role")).toHaveText("Staff");

  const newcomer = await signInAs(browser, baseURL, newEmail, password);
  await expect(newcomer).toHaveURL(/\/admin$/);
  await expect(newcomer.getByTestId("signed-in-email")).toHaveText(newEmail);
  await newcomer.context().close();
  await staff.context().close();
});
