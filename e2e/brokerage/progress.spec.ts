import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { closeDb, getDb } from "@/db/client";
import { getDemoCredential } from "@/db/seed";
import { createPartnerClient, type PartnerClient } from "@/server/signing/client";

// The buyer's progress page through the production build: a partner opens a
// case with the demo sandbox credential, the buyer opens progress_url without
// signing in, staff advance the case with the operations CLI, the page follows.
// The domain is under .test, which the site probe answers without DNS.

const run = promisify(execFile);

async function admin(...args: string[]) {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args, "--json"], { env: process.env });
  return JSON.parse(stdout) as { status: string };
}

let client: PartnerClient;

test.beforeAll(async ({ baseURL }) => {
  const credential = await getDemoCredential(getDb(), "mor");
  await closeDb();
  client = createPartnerClient({ baseUrl: baseURL!, ...credential });
});

test("the buyer follows a brokerage case on its public progress page", async ({ page, baseURL }) => {
  const domain = `e2e-brokerage-${randomBytes(4).toString("hex")}.test`;
  const created = await client.post<{ case_id: string; status: string; progress_url: string }>("/api/partner/v1/brokerage", {
    domain,
    tier: "managed",
    buyer_email: "buyer@example.com",
    budget: 1_500_000,
  });
  expect(created.status).toBe(201);
  expect(created.body.status).toBe("OPEN");
  expect(created.body.progress_url.startsWith(`${baseURL}/brokerage/`)).toBe(true);

  const response = await page.goto(created.body.progress_url);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(domain);
  await expect(page.getByTestId("case-status")).toHaveAttribute("data-status", "OPEN");
  await expect(page.getByTestId("step-OPEN")).toHaveAttribute("aria-current", "step");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");

  expect((await admin("brokerage:advance", created.body.case_id, "--to", "RESEARCHING")).status).toBe("RESEARCHING");
  expect(
    (await admin("brokerage:advance", created.body.case_id, "--to", "NEGOTIATING", "--note", "The owner replied and is open to offers.")).status,
  ).toBe("NEGOTIATING");
  await page.reload();
  await expect(page.getByTestId("case-status")).toHaveAttribute("data-status", "NEGOTIATING");
  await expect(page.getByTestId("step-NEGOTIATING")).toHaveAttribute("aria-current", "step");
  await expect(page.getByTestId("timeline")).toContainText("The owner replied and is open to offers.");
  await expect(page.getByTestId("next-step")).toContainText("negotiating");
  await page.screenshot({ path: "test-results/brokerage-progress.png", fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/brokerage-progress-mobile.png", fullPage: true });
});

test("an unknown progress token is a 404 page", async ({ page }) => {
  const response = await page.goto(`/brokerage/${"A".repeat(43)}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});
