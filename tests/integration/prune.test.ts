import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, afterEach, describe, it } from "node:test";
import { eq, inArray, like, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { advisoryLocks } from "@/db/locks";
import { checkoutSessions, domains, oauthClients, payments, quotes, rateLimits } from "@/db/schema";
import * as quotesRoute from "@/app/api/partner/v1/quotes/route";
import { clock } from "@/server/clock";
import { newId } from "@/server/ids";
import { registerClient } from "@/server/oauth/clients";
import { addDomain } from "@/server/services/inventory";
import { BATCH, pruneExpired, retention } from "@/server/services/prune";
import { createQuote, MAX_OPEN_QUOTES } from "@/server/services/quotes";
import { callRoute, createTestPartner } from "../helpers/partner";

// The pruning chore deletes what is old and unreferenced, keeps what is young or
// still referenced, in batches; the open-quote cap refuses and changes nothing.

const DAY = 86_400_000;
const tag = `pr${Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join("")}`;
let n = 0;
const name = () => `${tag}d${++n}.com`;

afterEach(() => clock.reset());
after(closeDb);

describe("pruning", () => {
  it("deletes old, unreferenced rows in batches and keeps young or referenced ones", async () => {
    const db = getDb();
    const { partnerId } = await createTestPartner();
    const domain = name();
    const listing = await addDomain(db, { environment: "sandbox", name: domain, priceCents: 10_000 });
    const domainId = (await db.select({ id: domains.id }).from(domains).where(eq(domains.name, domain)))[0]!.id;
    void listing;
    const long = new Date(clock.nowMs() - 500 * DAY);
    const recent = new Date(clock.nowMs() + 60_000);

    // Quotes: expired and unused goes; expired but ordered stays; open stays.
    const q = (id: string, expiresAt: Date, orderId: string | null) =>
      ({ id, partnerId, environment: "sandbox" as const, domainId, domain, salePriceCents: 10_000, expiresAt, orderId, createdAt: expiresAt });
    const [oldQuote, orderedQuote, openQuote] = [newId("quote"), newId("quote"), newId("quote")];
    await db.insert(quotes).values([q(oldQuote, long, null), q(orderedQuote, long, "ord_kept"), q(openQuote, recent, null)]);

    // Checkout sessions: expired long ago and never paid goes; one with a payment attempt stays.
    const s = (id: string) => ({ id, partnerId, environment: "sandbox" as const, domainId, domain, salePriceCents: 10_000, expiresAt: long, createdAt: long });
    const [oldSession, attemptedSession] = [newId("checkoutSession"), newId("checkoutSession")];
    await db.insert(checkoutSessions).values([s(oldSession), s(attemptedSession)]);
    const declined = newId("payment");
    const succeeded = newId("payment");
    await db.insert(payments).values([
      { id: declined, checkoutSessionId: attemptedSession, environment: "sandbox", provider: "sandbox", idempotencyKey: `${tag}:${declined}`, amountCents: 10_000, status: "declined", createdAt: long },
      { id: succeeded, checkoutSessionId: attemptedSession, environment: "sandbox", provider: "sandbox", idempotencyKey: `${tag}:${succeeded}`, amountCents: 10_000, status: "succeeded", createdAt: long },
    ]);

    // OAuth: a client never used for over a day goes; a fresh one stays.
    const unused = await registerClient(db, { redirect_uris: ["https://a.example/cb"] });
    await db.update(oauthClients).set({ createdAt: new Date(clock.nowMs() - 2 * DAY) }).where(eq(oauthClients.id, unused.client_id));
    const fresh = await registerClient(db, { redirect_uris: ["https://b.example/cb"] });

    // Rate-limit buckets: more than one batch of idle ones, all deleted; a live one stays.
    await db.execute(sql`insert into rate_limits (key, tat)
      select ${`${tag}:idle:`} || g, ${new Date(clock.nowMs() - 2 * DAY).toISOString()}::timestamptz from generate_series(1, ${BATCH * 2 + 17}) g`);
    await db.insert(rateLimits).values({ key: `${tag}:live`, tat: new Date() });

    const report = await pruneExpired(db);
    assert.ok(report, "another process held the prune lock");
    assert.ok((report["idle rate-limit buckets"] ?? 0) >= BATCH * 2 + 17);

    const quoteIds = (await db.select({ id: quotes.id }).from(quotes).where(inArray(quotes.id, [oldQuote, orderedQuote, openQuote]))).map((r) => r.id);
    assert.deepEqual(quoteIds.sort(), [orderedQuote, openQuote].sort());
    const sessionIds = (await db.select({ id: checkoutSessions.id }).from(checkoutSessions).where(inArray(checkoutSessions.id, [oldSession, attemptedSession]))).map((r) => r.id);
    assert.deepEqual(sessionIds, [attemptedSession]);
    const paymentIds = (await db.select({ id: payments.id }).from(payments).where(inArray(payments.id, [declined, succeeded]))).map((r) => r.id);
    assert.deepEqual(paymentIds, [succeeded]);
    const clients = (await db.select({ id: oauthClients.id }).from(oauthClients).where(inArray(oauthClients.id, [unused.client_id, fresh.client_id]))).map((r) => r.id);
    assert.deepEqual(clients, [fresh.client_id]);
    const buckets = await db.select({ key: rateLimits.key }).from(rateLimits).where(like(rateLimits.key, `${tag}:%`));
    assert.deepEqual(buckets.map((b) => b.key), [`${tag}:live`]);
  });

  it("retention keeps the replayable history for 13 months", () => {
    assert.ok(retention.eventsMs >= 395 * DAY);
    assert.ok(retention.clicksMs >= 395 * DAY);
  });

  it("one pruner at a time across processes", async () => {
    const db = getDb();
    const other = await db.$client.reserve(); // another process's pruner, mid-run
    try {
      await other`select pg_advisory_lock(${advisoryLocks.prune})`;
      assert.equal(await pruneExpired(db), null);
      await other`select pg_advisory_unlock(${advisoryLocks.prune})`;
      assert.notEqual(await pruneExpired(db), null);
    } finally {
      other.release();
    }
  });
});

describe("open quotes are capped per partner and environment", () => {
  it(`the quote past ${MAX_OPEN_QUOTES} open ones is 429 with Retry-After and creates nothing`, async () => {
    const db = getDb();
    const partner = await createTestPartner({ scopes: ["buy", "search"] });
    const held = name();
    await addDomain(db, { environment: "sandbox", name: held, priceCents: 10_000 });
    const domainId = (await db.select({ id: domains.id }).from(domains).where(eq(domains.name, held)))[0]!.id;
    const expiresAt = new Date(clock.nowMs() + 5 * 60_000);
    await db.execute(sql`insert into quotes (id, partner_id, environment, domain_id, domain, sale_price_cents, currency, expires_at, created_at)
      select 'qt_' || ${tag} || g, ${partner.partnerId}, 'sandbox', ${domainId}, ${held}, 10000, 'USD', ${expiresAt.toISOString()}::timestamptz, now()
      from generate_series(1, ${MAX_OPEN_QUOTES}) g`);
    const target = name();
    await addDomain(db, { environment: "sandbox", name: target, priceCents: 10_000 });
    const res = await callRoute<{ error: { code: string; message: string } }>(quotesRoute.POST, {
      method: "POST",
      url: "/api/partner/v1/quotes",
      credential: partner.credential,
      body: { domain: target },
    });
    assert.equal(res.status, 429, JSON.stringify(res.body));
    assert.equal(res.body.error.code, "rate_limited");
    assert.match(res.body.error.message, /open quotes/);
    assert.ok(Number(res.headers.get("retry-after")) > 0);
    const made = await db.select().from(quotes).where(eq(quotes.domain, target));
    assert.equal(made.length, 0);
    // One expires or is used: room again.
    clock.advance(6 * 60_000);
    const again = await createQuote(db, { partnerId: partner.partnerId, environment: "sandbox", domain: target });
    assert.equal(again.row.domain, target);
  });
});
