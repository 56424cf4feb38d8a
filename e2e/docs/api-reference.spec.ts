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

  // An endpoint of the document is listed, with its method and path.
  await expect(page.getByRole("heading", { name: "Record a partner-collected sale" }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("/api/partner/v1/orders").first()).toBeVisible();
  await expect(page.getByText("Standard Webhooks").first()).toBeAttached();
  await page.waitForLoadState("networkidle");

  await saveScreenshots(page, "api-reference");
  await expectAccessible(page, "/docs/api");

  expect(foreign, "requests to another origin").toEqual([]);
  expect(cspViolations, "Content-Security-Policy violations").toEqual([]);
  const response = await page.request.get("/docs/api");
  expect(response.headers()["content-security-policy"]).toContain("connect-src 'self'");
});
