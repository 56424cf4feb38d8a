// Fixed, fake Stripe keys shared by the browser tests' stand-in and the app they start
// (test-mode shaped, so a production start would refuse them).
export const E2E_STRIPE_KEYS = {
  secretKey: "sk_test_e2estandin0000000000000000",
  publishableKey: "pk_test_e2estandin0000000000000000",
  webhookSecret: "whsec_e2estandin0000000000000000",
};

/** Where browser tests run the Stripe stand-in: E2E_STRIPE_PORT, else the app's E2E_PORT (default 3100) plus one. */
export function e2eStripeUrl(): string {
  const port = Number(process.env.E2E_STRIPE_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 1);
  return `http://127.0.0.1:${port}`;
}
