import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import { ZodError } from "zod";
import { closeDb, getDb } from "@/db/client";
import { auditLog, users, type Environment } from "@/db/schema";
import * as analyticsRoute from "@/app/api/partner/v1/analytics/route";
import * as brokerageCaseRoute from "@/app/api/partner/v1/brokerage/[case_id]/route";
import * as brokerageRoute from "@/app/api/partner/v1/brokerage/route";
import * as eligibilityRoute from "@/app/api/partner/v1/brokerage/eligibility/route";
import * as linksRoute from "@/app/api/partner/v1/links/route";
import * as clicksRoute from "@/app/api/partner/v1/me/clicks/route";
import * as commissionsRoute from "@/app/api/partner/v1/me/commissions/route";
import * as mePayoutsRoute from "@/app/api/partner/v1/me/payouts/route";
import * as salesRoute from "@/app/api/partner/v1/me/sales/route";
import * as redirectRoute from "@/app/r/[code]/route";
import type { SessionUser } from "@/server/auth/session";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";
import { createCheckoutSession } from "@/server/services/checkout";
import { addDomain } from "@/server/services/inventory";
import { getAffiliateStatus, recordReferralSale, setAffiliate } from "@/server/services/referrals";
import { createCaller } from "@/server/trpc/routers/_app";
import { createFixtureOrder } from "../helpers/orders";
import { runAdmin } from "../helpers/cli";
import { callRoute, createTestPartner, uniqueSuffix, type TestCredential } from "../helpers/partner";

// The dashboard's Growth procedures (links.*, brokerage.*) against the real
// database: scoped to the signed-in partner and the header's environment (another
// partner's link or case is not_found), viewers cannot create, a partner without
// an affiliate account is refused with the REST message, and every figure equals
// what the REST route answers the same partner.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CHROMIUM_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36";

after(closeDb);
afterEach(() => clock.reset());

interface TestPartner {
  partnerId: string;
  credential: TestCredential;
  owner: SessionUser;
}

async function partnerUser(partnerId: string, role: "owner" | "developer" | "viewer" = "owner"): Promise<SessionUser> {
  const [row] = await getDb().select().from(users).where(eq(users.partnerId, partnerId));
  assert.ok(row);
  return { id: row.id, email: row.email, name: row.name, role: "partner", partnerId, partnerRole: role };
}

async function newPartner(options: { isAffiliate?: boolean; paymentModel?: "mor" | "non_mor" } = {}): Promise<TestPartner> {
  const { partnerId, credential } = await createTestPartner(options);
  return { partnerId, credential, owner: await partnerUser(partnerId) };
}

const callerFor = (user: SessionUser, environment: Environment = "sandbox") => createCaller({ db: getDb(), user, environment });

/** The AppError code a tRPC call failed with (input failing its zod schema is validation_error). */
async function rejectsWith(promise: Promise<unknown>, code: string, message?: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    const cause = (error as { cause?: unknown }).cause;
    const app = cause instanceof AppError ? cause : error instanceof AppError ? error : undefined;
    const actual = app?.code ?? (cause instanceof ZodError ? "validation_error" : String(error));
    assert.equal(actual, code, String(error));
    if (message) assert.match(app?.message ?? "", message);
    return true;
  });
}

async function rest(handler: Parameters<typeof callRoute>[0], credential: TestCredential, url: string, params?: Record<string, string>) {
  const res = await callRoute<Json>(handler, { url, credential, params });
  assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Follows /r/{code} as a person's browser would, from an address of its own. */
async function follow(url: string) {
  const code = url.split("/r/")[1] ?? "";
  const headers = new Headers({
    "user-agent": CHROMIUM_UA,
    "x-client-ip": `10.7.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`,
  });
  const response = await redirectRoute.GET(new Request(`http://localhost:3000/r/${code}`, { headers }), { params: Promise.resolve({ code }) });
  assert.equal(response.status, 302);
  const cookie = /^pdm_ref=([^;]+)/.exec(response.headers.get("set-cookie") ?? "")?.[1];
  assert.ok(cookie);
  const [linkId, visitorId] = cookie.split(".");
  return { linkId: linkId!, visitorId: visitorId! };
}

describe("links: the affiliate rule", () => {
  it("a partner without an affiliate account is refused every report and the create, with the REST message", async () => {
    const plain = await newPartner({ isAffiliate: false });
    const trpc = callerFor(plain.owner);
    assert.deepEqual(await getAffiliateStatus(getDb(), plain.partnerId), { isAffiliate: false, referralCommissionBps: 1000 });
    const affiliateMessage = /needs? an affiliate account/;
    await rejectsWith(trpc.links.create({ type: "generic" }), "forbidden", affiliateMessage);
    await rejectsWith(trpc.links.list({}), "forbidden", affiliateMessage);
    await rejectsWith(trpc.links.analytics({}), "forbidden", affiliateMessage);
    await rejectsWith(trpc.links.clicks({}), "forbidden", affiliateMessage);
    await rejectsWith(trpc.links.sales({}), "forbidden", affiliateMessage);
    await rejectsWith(trpc.links.commissions({}), "forbidden", affiliateMessage);
    await rejectsWith(trpc.links.payouts({}), "forbidden", affiliateMessage);

    const refused = await callRoute<Json>(linksRoute.GET, { url: "/api/partner/v1/links", credential: plain.credential });
    assert.equal(refused.status, 403);
    await assert.rejects(trpc.links.list({}), (error: Error) => error.message === refused.body.error.message);

    // Staff enable the program with the operations CLI: the next call passes (the flag is read per call), audited.
    const cli = await runAdmin("partner:set-affiliate", "--partner", plain.partnerId, "--json");
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(JSON.parse(cli.stdout), { partner_id: plain.partnerId, is_affiliate: true });
    assert.equal((await getAffiliateStatus(getDb(), plain.partnerId)).isAffiliate, true);
    assert.deepEqual((await trpc.links.list({})).data, []);
    const audit = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, plain.partnerId), eq(auditLog.action, "partner.affiliate_enabled")));
    assert.equal(audit.length, 1);
    assert.equal(audit[0]?.actorType, "cli");

    await setAffiliate(getDb(), { partnerId: plain.partnerId, isAffiliate: false }, { type: "admin", id: "growth-test" });
    await rejectsWith(trpc.links.list({}), "forbidden", affiliateMessage);
    await rejectsWith(setAffiliate(getDb(), { partnerId: "ptn_missing", isAffiliate: true }, { type: "admin" }), "not_found");
  });

  it("a viewer reads but cannot create a link, even in an affiliate partner", async () => {
    const affiliate = await newPartner({ isAffiliate: true });
    const viewer = { ...affiliate.owner, partnerRole: "viewer" as const };
    await rejectsWith(callerFor(viewer).links.create({ type: "generic" }), "forbidden", /Viewers/);
    assert.deepEqual((await callerFor(viewer).links.list({})).data, []);
  });

  it("create takes the REST body: type-specific fields are validated and a domain must be listed here", async () => {
    const affiliate = await newPartner({ isAffiliate: true });
    const trpc = callerFor(affiliate.owner);
    await rejectsWith(trpc.links.create({ type: "domain" }), "validation_error");
    await rejectsWith(trpc.links.create({ type: "generic", product: "brokerage" }), "validation_error");
    await rejectsWith(trpc.links.create({ type: "domain", domain: `unlisted-${uniqueSuffix()}.com` }), "validation_error", /not listed/);
    const product = await trpc.links.create({ type: "product", product: "brokerage", label: "Brokerage page" });
    assert.equal(product.target, "/brokerage");
    assert.match(product.url, /\/r\/[0-9A-Za-z]{10}$/);
  });
});

describe("links: scoped to partner and environment, figures equal to REST", () => {
  let a: TestPartner;
  let b: TestPartner;
  let seller: TestPartner;
  let link: Json;
  let bLink: Json;

  before(async () => {
    a = await newPartner({ isAffiliate: true });
    b = await newPartner({ isAffiliate: true });
    seller = await newPartner({ paymentModel: "non_mor" });
    const domain = `growth-${uniqueSuffix()}.com`;
    await addDomain(getDb(), { environment: "sandbox", name: domain, priceCents: 64_000 });
    link = await callerFor(a.owner).links.create({ type: "domain", domain, label: "Spring newsletter" });
    assert.equal(link.target, `/domains/${domain}`);
    bLink = await callerFor(b.owner).links.create({ type: "generic" });

    // Two people click; one of them starts a checkout and another order is attributed to the link.
    const first = await follow(link.url);
    await follow(link.url);
    await follow(bLink.url);
    await createCheckoutSession(getDb(), { partnerId: null, environment: "sandbox", domain, referral: first });
    const order = await createFixtureOrder({ partnerId: seller.partnerId, channel: "checkout", priceCents: 42_000 });
    clock.reset();
    await getDb().transaction((tx) => recordReferralSale(tx, { order, linkId: link.id, visitorId: first.visitorId }));
  });

  it("another partner's link is not_found, and so is a sandbox link seen from live", async () => {
    await rejectsWith(callerFor(b.owner).links.get({ id: link.id }), "not_found");
    await rejectsWith(callerFor(a.owner, "live").links.get({ id: link.id }), "not_found");
    assert.deepEqual((await callerFor(a.owner, "live").links.list({})).data, []);
    // Narrowing a report to someone else's link shows nothing of it.
    const foreignClicks = await callerFor(b.owner).links.clicks({ linkId: link.id, interval: "day" });
    assert.equal(foreignClicks.clicks, 0);
    assert.deepEqual((await callerFor(b.owner).links.sales({ linkId: link.id })).data, []);
    assert.ok(!(await callerFor(b.owner).links.list({})).data.some((l) => l.id === link.id));
  });

  it("the link list, one link, the funnel and the reports equal the REST answers", async () => {
    const trpc = callerFor(a.owner);
    const list = await trpc.links.list({ limit: 20 });
    assert.deepEqual(list, await rest(linksRoute.GET, a.credential, "/api/partner/v1/links?limit=20"));
    const mine = list.data.find((l) => l.id === link.id);
    assert.ok(mine);
    assert.equal(mine.clicks, 2);
    assert.equal(mine.checkouts, 1);
    assert.equal(mine.conversions, 1);
    assert.deepEqual(mine.revenue, [{ currency: "USD", gmv_cents: 42_000, commission_cents: 4_200 }]);
    assert.deepEqual(await trpc.links.get({ id: link.id }), mine);

    const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const window = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    const funnel = await trpc.links.analytics({ from, to });
    assert.deepEqual(funnel, await rest(analyticsRoute.GET, a.credential, `/api/partner/v1/analytics?${window}`));
    assert.equal(funnel.clicks, 2);
    assert.equal(funnel.checkouts, 1);
    assert.equal(funnel.sales, 1);

    const clicks = await trpc.links.clicks({ from, to, interval: "day" });
    assert.deepEqual(clicks, await rest(clicksRoute.GET, a.credential, `/api/partner/v1/me/clicks?${window}&interval=day`));
    const oneLink = await trpc.links.clicks({ from, to, interval: "day", linkId: link.id });
    assert.equal(oneLink.clicks, 2);
    assert.equal(oneLink.series?.reduce((n, d) => n + d.clicks, 0), 2);

    const sales = await trpc.links.sales({ limit: 50 });
    assert.deepEqual(sales, await rest(salesRoute.GET, a.credential, "/api/partner/v1/me/sales?limit=50"));
    assert.deepEqual((await trpc.links.sales({ linkId: link.id })).data.map((s) => s.link_id), [link.id]);

    const ledger = await trpc.links.commissions({ limit: 50 });
    assert.deepEqual(ledger, await rest(commissionsRoute.GET, a.credential, "/api/partner/v1/me/commissions?limit=50"));
    assert.deepEqual(ledger.totals, [{ currency: "USD", accrued_cents: 4_200, pending_cents: 0, paid_out_cents: 0, reversed_cents: 0 }]);
    const accrued = await trpc.links.commissions({ state: "accrued" });
    assert.deepEqual(accrued, await rest(commissionsRoute.GET, a.credential, "/api/partner/v1/me/commissions?state=accrued"));
    assert.deepEqual((await trpc.links.commissions({ state: "paid_out" })).data, []);

    const payouts = await trpc.links.payouts({});
    assert.deepEqual(payouts, await rest(mePayoutsRoute.GET, a.credential, "/api/partner/v1/me/payouts"));
  });
});

describe("brokerage: scoped, viewer-proof, equal to REST", () => {
  let a: TestPartner;
  let b: TestPartner;
  let caseId: string;
  const domain = `growth-broker-${uniqueSuffix()}.test`;

  before(async () => {
    a = await newPartner();
    b = await newPartner();
  });

  it("checks eligibility, opens a case (audited with the user), and refuses a second one for the domain", async () => {
    const trpc = callerFor(a.owner);
    const eligibility = await trpc.brokerage.eligibility({ domain: domain.toUpperCase() });
    assert.deepEqual(eligibility, { domain, eligible: true, reasons: [] });
    assert.deepEqual(eligibility, await rest(eligibilityRoute.GET, a.credential, `/api/partner/v1/brokerage/eligibility?domain=${domain}`));

    const created = await trpc.brokerage.create({ domain, tier: "managed", buyer_email: "buyer@example.com", budget: 1_250_000 });
    caseId = created.case_id;
    assert.equal(created.status, "OPEN");
    assert.equal(created.currency, "USD");
    assert.equal(created.timeline.length, 1);
    assert.match(created.progress_url, /\/brokerage\/[A-Za-z0-9_-]{43}$/);
    const [audit] = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, caseId), eq(auditLog.action, "brokerage.case_opened")));
    assert.equal(audit?.actorType, "partner");
    assert.equal(audit?.actorId, a.owner.id);

    const again = await trpc.brokerage.eligibility({ domain });
    assert.equal(again.eligible, false);
    assert.deepEqual(again.reasons.map((r) => r.code), ["open_case"]);
    await rejectsWith(trpc.brokerage.create({ domain, tier: "self_serve", buyer_email: "x@example.com", budget: 100 }), "conflict", /open brokerage case/);
  });

  it("a viewer cannot open a case", async () => {
    const viewer = { ...a.owner, partnerRole: "viewer" as const };
    await rejectsWith(
      callerFor(viewer).brokerage.create({ domain: `viewer-${uniqueSuffix()}.test`, tier: "managed", buyer_email: "b@example.com", budget: 100 }),
      "forbidden",
    );
  });

  it("another partner's case, or the case from the other environment, is not_found", async () => {
    await rejectsWith(callerFor(b.owner).brokerage.get({ caseId }), "not_found");
    await rejectsWith(callerFor(a.owner, "live").brokerage.get({ caseId }), "not_found");
    assert.deepEqual((await callerFor(b.owner).brokerage.list({})).data, []);
    assert.deepEqual((await callerFor(a.owner, "live").brokerage.list({})).data, []);
  });

  it("list (with status filters) and one case equal the REST answers", async () => {
    const trpc = callerFor(a.owner);
    const list = await trpc.brokerage.list({ limit: 20 });
    assert.deepEqual(list, await rest(brokerageRoute.GET, a.credential, "/api/partner/v1/brokerage?limit=20"));
    assert.deepEqual(list.data.map((c) => c.case_id), [caseId]);
    const open = await trpc.brokerage.list({ status: ["OPEN", "RESEARCHING"] });
    assert.deepEqual(open, await rest(brokerageRoute.GET, a.credential, "/api/partner/v1/brokerage?status=OPEN,RESEARCHING"));
    assert.equal(open.data.length, 1);
    assert.deepEqual((await trpc.brokerage.list({ status: ["COMPLETED"] })).data, []);
    const one = await trpc.brokerage.get({ caseId });
    assert.deepEqual(one, await rest(brokerageCaseRoute.GET, a.credential, `/api/partner/v1/brokerage/${caseId}`, { case_id: caseId }));
  });
});
