import { expect, test, type Page } from "@playwright/test";

// Smoke test of the web shell: public home page, sign-in with the seeded demo
// partner, the tRPC-backed dashboard, sign-out, and a failed sign-in.

const demoPartner = { email: "mor@example.com", password: "demo-password", name: "Acme Registrar" };

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("home page introduces the marketplace and links to sign-in and the API reference", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveTitle(/Domain Marketplace/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Sell premium domains/);
  await expect(page.getByRole("heading", { name: "How partners integrate" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in", exact: true })).toHaveAttribute("href", "/sign-in");
  await expect(page.getByRole("link", { name: "API reference" }).first()).toHaveAttribute(
    "href",
    "/docs/api",
  );
  await page.screenshot({ path: "test-results/home.png", fullPage: true });
});

test("a partner signs in, sees tRPC-backed figures and signs out", async ({ page }) => {
  await signIn(page, demoPartner.email, demoPartner.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  await expect(page.getByTestId("partner-name")).toHaveText(demoPartner.name);
  await expect(page.getByTestId("payment-model")).toHaveText("Merchant of record");
  await expect(page.getByTestId("signed-in-email")).toHaveText(demoPartner.email);
  // The rendered API reference is one of the dashboard's sections (e2e/docs/api-reference.spec.ts opens it).
  await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs/api");
  const inventory = page.getByTestId("sandbox-inventory").locator("[data-value]");
  await expect(inventory).toBeVisible();
  expect(Number(await inventory.getAttribute("data-value"))).toBeGreaterThanOrEqual(10_000);
  expect(Number((await inventory.innerText()).replace(/\D/g, ""))).toBeGreaterThanOrEqual(10_000);
  await page.screenshot({ path: "test-results/dashboard.png", fullPage: true });

  // The public pages' header sees the session cookie: "Dashboard" in place of "Sign in".
  await page.goto("/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Dashboard", exact: true })).toHaveAttribute("href", "/dashboard");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in", exact: true })).toHaveCount(0);
  await page.goto("/dashboard");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByText("You have been signed out.")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fdashboard/);
});

test("a wrong password shows an error and keeps the user signed out", async ({ page }) => {
  await signIn(page, demoPartner.email, "not-the-password");
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveText("Incorrect email or password.");
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByLabel("Email")).toHaveValue(demoPartner.email);
  await page.screenshot({ path: "test-results/sign-in-error.png", fullPage: true });

  const session = await page.request.get("/api/auth/session");
  expect(await session.json()).toEqual({});
});

test("an admin lands on the admin console", async ({ page }) => {
  await signIn(page, "admin@example.com", "admin-password");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Admin console", level: 1 })).toBeVisible();
});

test("sign-in works without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, demoPartner.email, "wrong");
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveText("Incorrect email or password.");
  await page.getByLabel("Password").fill(demoPartner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("signed-in-email")).toHaveText(demoPartner.email);
  await context.close();
});
