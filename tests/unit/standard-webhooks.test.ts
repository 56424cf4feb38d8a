import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { generateWebhookSecret } from "@/server/services/webhooks";
import { standardWebhooksKey, verifyWebhookSignature, webhookHeaders } from "@/server/webhooks/signing";

// The Standard Webhooks headers of a delivery, checked by the reference
// library itself (npm `standardwebhooks`) with the secret the partner holds.
// tests/integration/sdk.test.ts does the same on a real delivery.

const body = JSON.stringify({ id: "evt_1", type: "order.recorded", data: { order: { public_id: "ord_1" } } });
const now = () => Math.floor(Date.now() / 1000);

function headersFor(secret: string, previousSecret?: string, timestampSeconds = now()) {
  return webhookHeaders({ secret, previousSecret, body, eventId: "evt_0351K0hP90VyOYac6ePQRx", timestampSeconds });
}

describe("Standard Webhooks headers", () => {
  it("a dashboard-generated whsec_ secret verifies with new Webhook(secret), unchanged", () => {
    const secret = generateWebhookSecret();
    const headers = headersFor(secret);
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.equal(headers["webhook-id"], "evt_0351K0hP90VyOYac6ePQRx");
    assert.equal(headers["webhook-timestamp"], headers["x-service-timestamp"]);
    assert.match(headers["webhook-signature"] as string, /^v1,[A-Za-z0-9+/]{43}=$/);
    // The spec's own header is unchanged: hex HMAC of the body keyed with the secret's text.
    assert.ok(verifyWebhookSignature(secret, body, headers["x-service-signature"]));
  });

  it("a chosen secret that is not base64 verifies with the library's raw format", () => {
    const secret = "whsec-my-own-secret-0123456789";
    assert.throws(() => new Webhook(secret), /incorrect characters/, "the library's default format cannot read it");
    assert.deepEqual(new Webhook(secret, { format: "raw" }).verify(body, headersFor(secret)), JSON.parse(body));
    assert.deepEqual(standardWebhooksKey(secret), Buffer.from(secret));
  });

  it("a chosen secret that happens to be base64 is decoded, as the library does", () => {
    const secret = "abcdEFGH1234abcdEFGH1234";
    assert.deepEqual(new Webhook(secret).verify(body, headersFor(secret)), JSON.parse(body));
    assert.deepEqual(standardWebhooksKey(`whsec_${secret}`), Buffer.from(secret, "base64"));
  });

  it("during a roll's grace both secrets verify (two space-separated signatures), a third does not", () => {
    const [next, previous, other] = [generateWebhookSecret(), generateWebhookSecret(), generateWebhookSecret()];
    const headers = headersFor(next, previous);
    assert.equal((headers["webhook-signature"] as string).split(" ").length, 2);
    assert.ok(new Webhook(next).verify(body, headers));
    assert.ok(new Webhook(previous).verify(body, headers));
    assert.throws(() => new Webhook(other).verify(body, headers), /No matching signature/);
  });

  it("a changed body or an old timestamp is refused by the library", () => {
    const secret = generateWebhookSecret();
    assert.throws(() => new Webhook(secret).verify(body.replace("ord_1", "ord_2"), headersFor(secret)), /No matching signature/);
    assert.throws(() => new Webhook(secret).verify(body, headersFor(secret, undefined, now() - 600)), /too old/);
  });
});
