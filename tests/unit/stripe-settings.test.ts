import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EnvError, loadEnv } from "@/server/env";
import { parseStripeForm } from "../helpers/stripe-stand-in";

// STRIPE_* settings: all three or none; a test-mode key never takes live money in production.

const base = { SECRET_KEY: "x".repeat(40), DATA_DIR: "/tmp/pdm-unit-env" };
const live = { STRIPE_SECRET_KEY: "sk_live_abc123", STRIPE_PUBLISHABLE_KEY: "pk_live_abc123", STRIPE_WEBHOOK_SECRET: "whsec_abc123" };
const test = { STRIPE_SECRET_KEY: "sk_test_abc123", STRIPE_PUBLISHABLE_KEY: "pk_test_abc123", STRIPE_WEBHOOK_SECRET: "whsec_abc123" };
const oneSentence = (pattern: RegExp) => (error: Error) => error instanceof EnvError && pattern.test(error.message) && error.message.split("\n").length === 2;

describe("Stripe settings", () => {
  it("none means live payments off and sandbox on the built-in processor", () => {
    const env = loadEnv(base);
    assert.deepEqual(env.stripe, { live: null, test: null, apiUrl: null });
  });

  it("all three turn live payments on; STRIPE_API_URL points elsewhere", () => {
    const env = loadEnv({ ...base, ...live, STRIPE_API_URL: "http://127.0.0.1:12111/" });
    assert.deepEqual(env.stripe.live, { secretKey: "sk_live_abc123", publishableKey: "pk_live_abc123", webhookSecret: "whsec_abc123" });
    assert.equal(env.stripe.apiUrl, "http://127.0.0.1:12111");
    assert.equal(loadEnv({ ...base, ...live, APP_ENV: "production" }).stripe.live?.secretKey, "sk_live_abc123");
  });

  it("half a configuration refuses to start, in one sentence", () => {
    assert.throws(() => loadEnv({ ...base, STRIPE_SECRET_KEY: live.STRIPE_SECRET_KEY }), oneSentence(/STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET: missing/));
    assert.throws(
      () => loadEnv({ ...base, STRIPE_TEST_SECRET_KEY: "sk_test_x", STRIPE_TEST_PUBLISHABLE_KEY: "pk_test_x" }),
      oneSentence(/STRIPE_TEST_WEBHOOK_SECRET: missing/),
    );
    assert.throws(() => loadEnv({ ...base, ...live, STRIPE_PUBLISHABLE_KEY: "pk_test_abc" }), oneSentence(/mode \(live or test\) differs/));
  });

  it("a test-mode key in production refuses to start; in development it is fine", () => {
    assert.throws(() => loadEnv({ ...base, ...test, APP_ENV: "production" }), oneSentence(/STRIPE_SECRET_KEY: a test-mode key cannot take live payments in production/));
    assert.equal(loadEnv({ ...base, ...test }).stripe.live?.secretKey, "sk_test_abc123");
  });

  it("malformed keys are named", () => {
    assert.throws(() => loadEnv({ ...base, ...live, STRIPE_SECRET_KEY: "pk_live_oops" }), /STRIPE_SECRET_KEY: must be a Stripe secret key/);
    assert.throws(() => loadEnv({ ...base, STRIPE_TEST_SECRET_KEY: "sk_live_x", STRIPE_TEST_PUBLISHABLE_KEY: "pk_test_x", STRIPE_TEST_WEBHOOK_SECRET: "whsec_x" }), /STRIPE_TEST_SECRET_KEY/);
  });

  it("the stand-in reads Stripe's bracketed form encoding", () => {
    assert.deepEqual(parseStripeForm("amount=100&metadata[domain]=a.com&automatic_payment_methods[enabled]=true"), {
      amount: "100",
      metadata: { domain: "a.com" },
      automatic_payment_methods: { enabled: "true" },
    });
  });
});

describe("the start banner", () => {
  it("says whether live payments are on", async () => {
    const { paymentsLine } = await import("@/server/cli/banner");
    assert.match(paymentsLine(loadEnv(base).stripe), /live payments OFF: set STRIPE_SECRET_KEY/);
    assert.match(paymentsLine(loadEnv({ ...base, ...live }).stripe), /^live payments on \(Stripe\); sandbox checkout: built-in simulated processor$/);
  });
});

describe("the OpenAPI document", () => {
  it("records the Stripe webhook and checkout-session's payments_unavailable", async () => {
    const { buildOpenApiDocument } = await import("@/server/openapi/build");
    const { partnerContracts } = await import("@/server/contracts");
    const doc = buildOpenApiDocument({ contracts: partnerContracts, serverUrl: "https://api.example.test" });
    const webhook = doc.paths["/api/payments/stripe/webhook"]?.post as { security: unknown[]; responses: Record<string, unknown> };
    assert.deepEqual(webhook.security, []);
    assert.ok(webhook.responses["400"] && webhook.responses["503"]);
    const create = doc.paths["/api/partner/v1/checkout-session"]?.post as { responses: Record<string, unknown> };
    assert.ok(create.responses["503"]);
  });
});
