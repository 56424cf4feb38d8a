import { expect, test } from "@playwright/test";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "../dashboard/helpers";

// The API reference page (/docs/api): Scalar renders the served OpenAPI
// document with its bundle from this origin; no request leaves it, the
// dashboard links to it, and it passes axe.

test("the API reference renders the OpenAPI document from our own origin only", async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? "http://localhost").origin;
  const foreign: string[] = [];
  const cspViolations: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol !== "data:" && url.protocol !== "blob:" && url.origin !== origin) foreign.push(request.url());
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });

  // Reached from the dashboard's navigation.
  await signUpNewPartner(page);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page).toHaveTitle(/API reference/);

  // Endpoints of the document are listed with method and path; the sidebar reaches the others.
  await expect(page.getByRole("link", { name: "get /api/partner/v1/domains/search" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("link", { name: /^Search the inventory/ }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Open API Client" })).toHaveCount(0);
  await page.getByRole("link", { name: "Merchant of record", exact: true }).first().click();
  await expect(page.getByText("Record a partner-collected sale").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "post /api/partner/v1/orders" }).first()).toBeVisible();
  await page.waitForLoadState("networkidle");

  await saveScreenshots(page, "api-reference");
  await expectAccessible(page, "/docs/api");

  expect(foreign, "requests to another origin").toEqual([]);
  expect(cspViolations, "Content-Security-Policy violations").toEqual([]);
  const response = await page.request.get("/docs/api");
  expect(response.headers()["content-security-policy"]).toContain("connect-src 'self'");
});
