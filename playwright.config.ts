import { defineConfig, devices } from "@playwright/test";
import { MONTH_CLOSE } from "./e2e/projects";
import { E2E_STRIPE_KEYS, e2eStripeUrl } from "./tests/helpers/stripe-e2e-keys";

// Browser tests against the built app, served by the same start script as
// `npm start` (build if stale, migrate, seed demo data). `npm test -- e2e`
// provides DATABASE_URL; the server gets its own port so a running
// development server on 3000 is left alone.

const PORT = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${PORT}`;
// Live hosted checkout pays through a local stand-in of Stripe's API (no internet here), next port up.
const stripeStandInUrl = e2eStripeUrl();
const chromium = {
  ...devices["Desktop Chrome"],
  // Debian's Chromium; Playwright's own browser download is not available here.
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: "list",
  // A spec is a whole scenario (sign-up, a few pages, accessibility scans, screenshots at two
  // widths): about 20-60 s on a quiet 2-core machine. On a slower one running two browsers, the
  // server, PostgreSQL and the seed's phrase embedding at once, the admin scenarios took 1.2-2.2
  // min in CI (2026-11-27, where lint alone ran 1.4x slower than an hour before), so the budget
  // is five minutes: a stuck step still fails, only a slow machine no longer does.
  timeout: 300_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    headless: true,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    // Each spec works on partners, listings and keys of its own (named by a tag), so
    // spec files run side by side, E2E_WORKERS at a time (default 2); a file's tests in order.
    { name: "chromium", use: chromium, testIgnore: MONTH_CLOSE },
    { name: "month-close", use: chromium, testMatch: MONTH_CLOSE, dependencies: ["chromium"], workers: 1 },
  ],
  webServer: [
    {
      command: "node --import tsx tests/helpers/stripe-stand-in-server.ts",
      url: `${stripeStandInUrl}/__stand-in/health`,
      timeout: 30_000,
      reuseExistingServer: !process.env.CI,
      stdout: "pipe",
      stderr: "pipe",
      env: { STRIPE_STAND_IN_PORT: new URL(stripeStandInUrl).port },
    },
    {
      command: "node --import tsx scripts/start.ts",
      url: `${baseURL}/api/health`,
      // A cold start may include `next build` on two cores.
      timeout: 300_000,
      reuseExistingServer: !process.env.CI,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        PORT: String(PORT),
        APP_URL: baseURL,
        NEXT_TELEMETRY_DISABLED: "1",
        // The end-to-end webhook test receives deliveries on 127.0.0.1, quickly retried.
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
        WEBHOOK_RETRY_SCHEDULE: "1s,2s,5s",
        // The specs stand in for a proxy: each sends X-Forwarded-For to get a bucket of its own.
        TRUST_PROXY_HOPS: "1",
        // One log line per request would flood the test output; warnings and errors still show.
        LOG_LEVEL: "warn",
        STRIPE_SECRET_KEY: E2E_STRIPE_KEYS.secretKey,
        STRIPE_PUBLISHABLE_KEY: E2E_STRIPE_KEYS.publishableKey,
        STRIPE_WEBHOOK_SECRET: E2E_STRIPE_KEYS.webhookSecret,
        STRIPE_API_URL: stripeStandInUrl,
      },
    },
  ],
});
