import { execFile } from "node:child_process";
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { closeDb, getDb } from "@/db/client";
import { addDomain } from "@/server/services/inventory";
import { createTestPartner, uniqueSuffix } from "../../tests/helpers/partner";
import { createPartnerClient, type PartnerClient } from "@/server/signing/client";

// The merchant-of-record flow as a partner lives it, over real HTTP against the
// production build with its webhook worker: register a webhook, quote, order
// (retried with the same Idempotency-Key), staff move the order through the
// operations CLI, signed deliveries arrive in order, the event history agrees,
// and a settlement run closes the statement.

const run = promisify(execFile);
const secret = `whsec_${randomUUID()}`;

interface Delivery {
  type: string;
  order: { public_id: string; status: string };
  signatureOk: boolean;
  eventId: string | undefined;
}

let client: PartnerClient;
let receiver: Server;
let hookUrl: string;
const deliveries: Delivery[] = [];
let domain: string;

async function admin(...args: string[]) {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args, "--json"], { env: process.env });
  return JSON.parse(stdout) as Record<string, unknown>;
}

test.beforeAll(async ({ baseURL }) => {
  const partner = await createTestPartner({ paymentModel: "mor" });
  domain = `e2e-flow-${uniqueSuffix()}.com`;
  await addDomain(getDb(), { environment: "sandbox", name: domain, priceCents: 123_400 });
  await closeDb();
  client = createPartnerClient({ baseUrl: baseURL!, ...partner.credential });

  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      const expected = Buffer.from(createHmac("sha256", secret).update(raw).digest("hex"));
      const given = Buffer.from(String(request.headers["x-service-signature"] ?? ""));
      const body = JSON.parse(raw.toString()) as { type: string; data: { order: Delivery["order"] } };
      deliveries.push({
        type: body.type,
        order: body.data.order,
        signatureOk: given.length === expected.length && timingSafeEqual(given, expected),
        eventId: request.headers["x-service-event-id"] as string | undefined,
      });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/marketplace`;
});

test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

test("quote, order once, transfer, signed webhooks, event history, settlement", async () => {
  test.setTimeout(90_000);
  const registered = await client.put<{ url: string; active: boolean }>("/api/partner/webhooks", { url: hookUrl, secret });
  expect(registered.status).toBe(200);
  expect(registered.body).toMatchObject({ url: hookUrl, active: true });
  expect(JSON.stringify(registered.body)).not.toContain(secret);

  const quote = await client.post<{ quote_id: string; sale_price_cents: number }>("/api/partner/v1/quotes", { domain });
  expect(quote.status).toBe(201);
  expect(quote.body.sale_price_cents).toBe(123_400);

  const order = { domain, expected_price: 123_400, currency: "USD", buyer: { email: "buyer@example.com" }, quote_id: quote.body.quote_id };
  const key = randomUUID();
  const first = await client.post<{ public_id: string; status: string }>("/api/partner/v1/orders", order, key);
  expect(first.status).toBe(201);
  expect(first.body.status).toBe("EXTERNALLY_PAID");
  const retry = await client.post("/api/partner/v1/orders", order, key);
  expect(retry.status).toBe(201);
  expect(retry.body).toEqual(first.body);
  const orderId = first.body.public_id;

  // The domain left the market.
  const availability = await client.get<{ available: boolean }>(`/api/partner/v1/availability?domain=${domain}`);
  expect(availability.body.available).toBe(false);

  expect((await admin("order:start-transfer", orderId)).status).toBe("TRANSFER_IN_PROGRESS");
  expect((await admin("order:complete-transfer", orderId)).status).toBe("TRANSFER_COMPLETED");

  const expected = ["order.recorded", "order.transfer_started", "order.transfer_completed"];
  await expect.poll(() => deliveries.map((d) => d.type), { timeout: 20_000 }).toEqual(expected);
  expect(deliveries.every((d) => d.signatureOk && d.order.public_id === orderId && d.eventId?.startsWith("evt_"))).toBe(true);

  const history = await client.get<{ events: { id: string; type: string }[] }>("/api/partner/v1/events?type=order.*&limit=200");
  expect(history.status).toBe(200);
  expect(history.body.events.map((e) => e.type)).toEqual(expected);
  expect(history.body.events.map((e) => e.id)).toEqual(deliveries.map((d) => d.eventId));

  // A run as of the first day of next month closes this month early.
  const now = new Date();
  const asOf = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
  await admin("settlement:run", "--as-of", asOf);
  const detail = await client.get<{ status: string }>(`/api/partner/v1/orders/${orderId}`);
  expect(detail.body.status).toBe("SETTLED");
  await expect.poll(() => deliveries.at(-1)?.type, { timeout: 20_000 }).toBe("order.settled");

  const statements = await client.get<{ data: { gross_sold_cents: number; commission_retained_cents: number; amount_owed_cents: number; order_count: number }[] }>(
    "/api/partner/v1/settlements",
  );
  expect(statements.status).toBe(200);
  const [statement] = statements.body.data;
  expect(statement).toMatchObject({ gross_sold_cents: 123_400, commission_retained_cents: 12_340, amount_owed_cents: 111_060, order_count: 1 });
});
