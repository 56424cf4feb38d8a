// The README's example, runnable against a served instance:
//   PARTNER_BASE_URL=http://localhost:3000 PARTNER_KEY_ID=pk_sandbox_... PARTNER_SECRET=... \
//     npx tsx sdk/examples/quickstart.ts
// It sells one sandbox domain and verifies the order.recorded webhook it receives on a local port
// (the server must allow loopback targets: WEBHOOK_ALLOW_PRIVATE_TARGETS=true, as in development).
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createPartnerClient, PartnerApiError, verifyWebhook, type WebhookEvent } from "@pdm/partner-sdk";

const { PARTNER_BASE_URL = "http://localhost:3000", PARTNER_KEY_ID, PARTNER_SECRET } = process.env;
if (!PARTNER_KEY_ID || !PARTNER_SECRET) throw new Error("set PARTNER_KEY_ID and PARTNER_SECRET (npm start prints the demo sandbox key)");

// 1. A client: every request is signed with a fresh nonce; 429 and 5xx are retried.
const client = createPartnerClient({
  baseUrl: PARTNER_BASE_URL,
  keyId: PARTNER_KEY_ID,
  secret: PARTNER_SECRET,
  onRetry: (r) => console.log(`retry ${r.attempt} of ${r.method} ${r.path} after ${r.delayMs} ms (status ${r.status})`),
});

// 2. A webhook receiver that verifies each delivery before trusting it.
const webhookSecret = `whsec_${randomBytes(30).toString("base64")}`;
const delivered = new Promise<WebhookEvent>((resolve) => {
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      try {
        const event = verifyWebhook({ secret: webhookSecret, body: Buffer.concat(chunks), headers: req.headers });
        res.writeHead(200).end();
        if (event.type === "order.recorded") {
          resolve(event);
          receiver.close();
        }
      } catch (error) {
        res.writeHead(400).end(String(error));
      }
    });
  });
  receiver.listen(0, "127.0.0.1", async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
    const endpoint = await client.registerWebhook({ url, secret: webhookSecret });
    console.log(`webhook endpoint ${endpoint.url} active=${endpoint.active}`);
  });
});

// 3. Search, then quote the first available domain.
const { results } = await client.searchDomains("coffee", { limit: 5 });
console.log(`search "coffee": ${results.map((r) => `${r.domain} (${r.available ? "available" : "taken"})`).join(", ")}`);
const pick = results.find((r) => r.available);
if (!pick) throw new Error("no available domain in the results");
const quote = await client.createQuote({ domain: pick.domain });
console.log(`quote ${quote.quote_id.slice(0, 16)}... ${quote.domain} ${quote.sale_price_cents} ${quote.currency} until ${quote.expires_at}`);

// 4. Record the sale. The Idempotency-Key makes a retry (or a second call) return the same order.
const sale = {
  domain: quote.domain,
  expected_price: quote.sale_price_cents,
  currency: quote.currency,
  quote_id: quote.quote_id,
  buyer: { email: "buyer@example.com", name: "Ada Buyer", country: "GB" },
};
const idempotencyKey = crypto.randomUUID();
const order = await client.createOrder(sale, { idempotencyKey });
const again = await client.createOrder(sale, { idempotencyKey });
console.log(`order ${order.public_id} ${order.status}; same key again -> ${again.public_id} (replayed: ${again.public_id === order.public_id})`);

// 5. Typed errors: branch on the code.
try {
  await client.getPricing("this-domain-is-not-listed-anywhere.com");
} catch (error) {
  if (!(error instanceof PartnerApiError)) throw error;
  console.log(`pricing of an unlisted domain -> ${error.status} ${error.code} (request ${error.requestId})`);
}

// 6. Every order, page by page (the iterator follows next_cursor).
let count = 0;
for await (const o of client.orders({ limit: 2 })) if (count++ < 3) console.log(`  ${o.public_id} ${o.domain} ${o.status}`);
console.log(`orders in total: ${count}`);

// 7. The webhook of this order, verified (signature, timestamp within 5 minutes).
const event = await delivered;
console.log(`webhook ${event.type} ${event.id} verified for ${(event.data.order as { public_id: string }).public_id}`);
