import { expect, test } from "@playwright/test";
import { expectAccessible } from "../dashboard/helpers";

// The API reference page (/docs/api): Scalar renders the served OpenAPI
// document with its bundle from this origin; no request leaves it, and it
// passes axe.

test("the API reference renders the OpenAPI document from our own origin only", async ({ page, baseURL }) => {
  // A 4.8 MB bundle parsed and a long document laid out, on a shared 2-core machine.
  test.setTimeout(120_000);
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

  // Public, like the OpenAPI document (e2e/smoke/home.spec.ts checks the dashboard's link to it).
  await page.goto("/docs/api");
  await expect(page).toHaveTitle(/API reference/);

  // Endpoints of the document are listed (Scalar renders sections lazily: the sidebar comes first).
  await expect(page.getByRole("link", { name: /^Search the inventory/ }).first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("link", { name: "Open API Client" })).toHaveCount(0);
  // The page's own loading line is gone once the bundle runs.
  await expect(page.getByText("Loading the API reference…")).toBeHidden();
  await page.getByRole("link", { name: "Merchant of record", exact: true }).first().click();
  await expect(page.getByText("Record a partner-collected sale").first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("/api/partner/v1/orders", { exact: true }).first()).toBeVisible();
  // Whatever the page would fetch late (fonts, telemetry) has had time to start.
  await page.waitForTimeout(1000);

  // The rendered document is tens of thousands of pixels long: the viewport, not the full page.
  await page.screenshot({ path: "test-results/screenshots/api-reference-desktop.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  // At phone width the sidebar folds into a menu; the document stays.
  await expect(page.getByRole("heading", { name: "Record a partner-collected sale" }).first()).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/api-reference-phone.png" });
  await page.setViewportSize({ width: 1280, height: 720 });
  await expectAccessible(page, "/docs/api");

  expect(foreign, "requests to another origin").toEqual([]);
  expect(cspViolations, "Content-Security-Policy violations").toEqual([]);
  const response = await page.request.get("/docs/api");
  expect(response.headers()["content-security-policy"]).toContain("connect-src 'self'");
});

test("the API reference says so, with a way out, when its bundle does not load", async ({ page }) => {
  await page.route("**/docs/api/scalar.js", (route) => route.abort("connectionfailed"));
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { name: "API reference" })).toBeVisible();
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("could not load");
  await expect(alert.getByRole("link", { name: "/api/partner/v1/openapi.json" })).toBeVisible();
  await expect(page.getByText("Loading the API reference…")).toBeHidden();
  await page.screenshot({ path: "test-results/screenshots/api-reference-failed-desktop.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/screenshots/api-reference-failed-phone.png" });
  await expectAccessible(page, "/docs/api (bundle failed)");
});
