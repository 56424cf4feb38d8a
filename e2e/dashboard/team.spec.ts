import { expect, test, type Browser, type Page } from "@playwright/test";
import { createPartnerClient } from "@/server/signing/client";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "./helpers";

// The team: an owner invites by link (no mail server), the invitee joins from
// another browser, and each role sees and may do what the role matrix says: a
// viewer cannot revoke a key, finance never sees the integration pages.

async function invite(page: Page, email: string, role: "Developer" | "Finance" | "Viewer"): Promise<string> {
  await page.getByRole("button", { name: "Invite member" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite a member" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Role").selectOption({ label: role });
  await dialog.getByRole("button", { name: "Create invitation link" }).click();
  const ready = page.getByRole("dialog", { name: "Invitation ready" });
  const link = await ready.getByTestId("invite-link").inputValue();
  expect(link).toMatch(/\/partners\/invite\/[A-Za-z0-9_-]{32}$/);
  return link;
}

/** Opens the link in a fresh browser (no session), joins, and returns that page on the dashboard. */
async function join(browser: Browser, link: string, name: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: new URL(link).origin });
  const page = await context.newPage();
  await page.goto(link);
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Password").fill("joined-with-a-password");
  await page.getByRole("button", { name: "Join the team" }).click();
  await page.waitForURL(/\/dashboard/);
  return page;
}

test("an owner invites a viewer and a finance member; each sees what the role allows", async ({ page, browser, baseURL }) => {
  await signUpNewPartner(page);
  await page.getByTestId("first-key-offer").getByRole("button", { name: "Create sandbox key" }).click();
  const keyDialog = page.getByRole("dialog", { name: "Your sandbox key" });
  const keyId = (await keyDialog.getByTestId("new-key-id").textContent())!.trim();
  const secret = (await keyDialog.getByTestId("new-key-secret").textContent())!.trim();
  await keyDialog.getByRole("button", { name: "I have stored it" }).click();

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Team" }).click();
  await expect(page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  await expect(page.getByTestId("member-row")).toHaveCount(1);
  await expectAccessible(page, "team");

  const tag = Date.now().toString(36);
  const viewerEmail = `viewer-${tag}@team.example`;
  const viewerLink = await invite(page, viewerEmail, "Viewer");
  await expectAccessible(page, "invitation link dialog");
  await saveScreenshots(page, "team-invite-link");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("invitation-row").filter({ hasText: viewerEmail })).toBeVisible();

  // The invitation page, before joining.
  const viewer = await join(browser, viewerLink, "Vera Viewer");
  await expect(viewer.getByTestId("signed-in-email")).toHaveText(viewerEmail);
  // The link works once.
  const anonymous = await browser.newContext();
  const again = await anonymous.newPage();
  await again.goto(viewerLink);
  await expect(again.getByText("This invitation has already been used")).toBeVisible();
  await expectAccessible(again, "used invitation");
  await anonymous.close();

  // A viewer reads keys but cannot revoke one: the server refuses the mutation.
  const revoke = await viewer.request.post("/api/trpc/keys.revoke", {
    data: { keyId },
    headers: { origin: baseURL!, "content-type": "application/json" },
  });
  expect(revoke.status()).toBe(403);
  expect(await revoke.text()).toContain("ask an owner");
  const client = createPartnerClient({ baseUrl: baseURL!, keyId, secret });
  expect((await client.get("/api/partner/v1/domains/search?q=pizza")).status).toBe(200);
  await viewer.goto("/dashboard/team");
  await expect(viewer.getByText("Only owners manage the team")).toBeVisible();
  await viewer.context().close();

  // Finance: money, not keys.
  const financeLink = await invite(page, `finance-${tag}@team.example`, "Finance");
  await page.getByRole("button", { name: "Done" }).click();
  const finance = await join(browser, financeLink, "Finn Finance");
  const nav = finance.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: "Overview" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "API keys" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Webhooks" })).toHaveCount(0);
  const keys = await finance.request.get("/api/trpc/keys.list");
  expect(keys.status()).toBe(403);
  await finance.context().close();

  // The owner sees both members, changes a role, removes one, and reads the audit log.
  await page.reload();
  await expect(page.getByTestId("member-row")).toHaveCount(3);
  await page.getByLabel(`Role of ${viewerEmail}`).selectOption("developer");
  await expect(page.getByText(`${viewerEmail} is now developer`, { exact: true })).toBeVisible();
  await page.getByRole("button", { name: `Remove ${viewerEmail}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Remove ${viewerEmail}?` });
  await expectAccessible(page, "remove member confirmation");
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByTestId("member-row")).toHaveCount(2);
  const audit = page.getByRole("table", { name: "Audit log" });
  await expect(audit.getByText("team.removed")).toBeVisible();
  await expect(audit.getByText("team.role_changed")).toBeVisible();
  await expect(audit.getByText("team.joined").first()).toBeVisible();
  await saveScreenshots(page, "team");
});

test("an unknown invitation link explains itself", async ({ page }) => {
  await page.goto(`/partners/invite/${"x".repeat(32)}`);
  await expect(page.getByRole("heading", { name: "Invitation unavailable" })).toBeVisible();
  await expect(page.getByText("We don't know this invitation link")).toBeVisible();
  await expectAccessible(page, "unknown invitation");
});
