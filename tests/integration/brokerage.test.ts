import assert from "node:assert/strict";
import { createHash, randomInt } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { closeDb, getDb } from "@/db/client";
import { auditLog, brokerageCases, events, partners, payouts } from "@/db/schema";
import * as brokerageRoute from "@/app/api/partner/v1/brokerage/route";
import * as caseRoute from "@/app/api/partner/v1/brokerage/[case_id]/route";
import * as eligibilityRoute from "@/app/api/partner/v1/brokerage/eligibility/route";
import { commands } from "@/server/cli/admin-table";
import { runAdminCommand } from "@/server/cli/admin-commands";
import { clock } from "@/server/clock";
import type { brokerageCaseSchema, eligibilitySchema, listBrokerageCasesEndpoint } from "@/server/contracts/brokerage";
import { getEnv } from "@/server/env";
import { addDomain } from "@/server/services/inventory";
import {
  advanceBrokerageCase,
  getCaseByProgressToken,
  progressToken,
  settleBrokerageShares,
} from "@/server/services/brokerage";
import { runSettlement } from "@/server/services/settlements";
import { createSiteProbe, setSiteProbe, type ProbeResult } from "@/server/services/site-probe";
import { addCredential, callRoute, createTestPartner, uniqueSuffix, type TestCredential } from "../helpers/partner";

// Brokerage against the real database, with the site probe replaced by a local
// one (no DNS, no traffic beyond 127.0.0.1). Settlement periods of the payout
// test are months of a random past year, like the settlement suite.

type Case = z.infer<typeof brokerageCaseSchema>;
type Eligibility = z.infer<typeof eligibilitySchema>;
type CaseList = z.infer<typeof listBrokerageCasesEndpoint.response>;
interface ErrorBody {
  error: { code: string; message: string; details?: { path: string }[] };
}

const staff = { type: "admin" as const, id: "brokerage-test" };
const activeSites = new Set<string>();
const probed: string[] = [];
const fakeProbe = async (domain: string): Promise<ProbeResult> => {
  probed.push(domain);
  return activeSites.has(domain) ? { active: true, detail: "test: active" } : { active: false, detail: "test: no site" };
};

const name = (label: string) => `bk-${label}-${uniqueSuffix()}.com`;
let a: { partnerId: string; credential: TestCredential };
let b: { partnerId: string; credential: TestCredential };
let aLive: TestCredential;

function create(credential: TestCredential, body: Record<string, unknown>) {
  return callRoute<Case & ErrorBody>(brokerageRoute.POST, { method: "POST", url: "/api/partner/v1/brokerage", credential, body });
}
function getCase(credential: TestCredential, caseId: string) {
  return callRoute<Case & ErrorBody>(caseRoute.GET, { url: `/api/partner/v1/brokerage/${caseId}`, credential, params: { case_id: caseId } });
}
function eligibility(credential: TestCredential, domain: string) {
  return callRoute<Eligibility>(eligibilityRoute.GET, { url: `/api/partner/v1/brokerage/eligibility?domain=${domain}`, credential });
}
function list(credential: TestCredential, query: string) {
  return callRoute<CaseList & ErrorBody>(brokerageRoute.GET, { url: `/api/partner/v1/brokerage?${query}`, credential });
}
async function openCase(credential: TestCredential, tier = "managed", domain = name("case")): Promise<Case> {
  const res = await create(credential, { domain, tier, buyer_email: "buyer@test.example", budget: 500_000 });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

before(async () => {
  setSiteProbe(fakeProbe);
  a = await createTestPartner();
  b = await createTestPartner();
  aLive = await addCredential(a.partnerId, "live", ["broker", "report"]);
});

after(async () => {
  setSiteProbe();
  clock.reset();
  await closeDb();
});

describe("eligibility", () => {
  it("a domain with an active site is ineligible; the probe result is cached", async () => {
    const domain = name("active");
    activeSites.add(domain);
    const res = await eligibility(a.credential, domain);
    assert.equal(res.status, 200);
    assert.equal(res.body.eligible, false);
    assert.deepEqual(res.body.reasons.map((r) => r.code), ["active_site"]);
    const again = await eligibility(a.credential, domain);
    assert.equal(again.body.eligible, false);
    assert.equal(probed.filter((d) => d === domain).length, 1, "second check is served from site_probes");
  });

  it("a free, unlisted domain without a site is eligible", async () => {
    const domain = name("free");
    const res = await eligibility(a.credential, domain.toUpperCase());
    assert.deepEqual(res.body, { domain, eligible: true, reasons: [] });
  });

  it("a listed domain is ineligible and the answer says to buy it (no probe)", async () => {
    const domain = name("listed");
    await addDomain(getDb(), { environment: "sandbox", name: domain, priceCents: 99_00 });
    const res = await eligibility(a.credential, domain);
    assert.equal(res.body.eligible, false);
    assert.equal(res.body.reasons[0]?.code, "listed");
    assert.match(res.body.reasons[0]?.message ?? "", /buy it/);
    assert.ok(!probed.includes(domain));
    const refused = await create(a.credential, { domain, tier: "managed", buyer_email: "x@test.example", budget: 100 });
    assert.equal(refused.status, 409);
    assert.match(refused.body.error.message, /listed in the inventory/);
  });

  it("a domain in an open case is ineligible for everyone in that environment, not in the other", async () => {
    const opened = await openCase(a.credential);
    const res = await eligibility(b.credential, opened.domain);
    assert.deepEqual(res.body.reasons.map((r) => r.code), ["open_case"]);
    assert.ok(!res.body.reasons[0]?.message.includes(a.partnerId), "the other partner is never named");
    const again = await create(b.credential, { domain: opened.domain, tier: "self_serve", buyer_email: "x@test.example", budget: 100 });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, "conflict");
    assert.equal((await eligibility(aLive, opened.domain)).body.eligible, true, "live does not see sandbox cases");
  });
});

describe("the real probe, against a local server", () => {
  let server: http.Server;
  let port: number;
  before(async () => {
    server = http.createServer((_req, res) => res.writeHead(200).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("an answering HTTP server is an active site; private addresses are not probed without allowPrivate", async () => {
    const resolve = async () => ["127.0.0.1"];
    const ports = { http: port, https: port + 1 > 65535 ? port - 1 : port + 1 };
    const local = createSiteProbe({ resolve, allowPrivate: true, ports, httpTimeoutMs: 500 });
    assert.deepEqual(await local("shop.example.com"), { active: true, detail: "http answered 200" });
    const guarded = createSiteProbe({ resolve, ports, httpTimeoutMs: 500 });
    const refused = await guarded("shop.example.com");
    assert.equal(refused.active, false);
    assert.match(refused.detail, /non-public 127\.0\.0\.1; not probed/);
  });

  it("a failed lookup means no active site; reserved TLDs are answered without DNS", async () => {
    const failing = createSiteProbe({
      resolve: async () => {
        throw Object.assign(new Error("no network"), { code: "EAI_AGAIN" });
      },
    });
    assert.deepEqual(await failing("nowhere.com"), { active: false, detail: "no DNS answer (EAI_AGAIN)", lookupFailed: true });
    const never = createSiteProbe({ resolve: async () => assert.fail("reserved names are not looked up") });
    assert.equal((await never("shop.test")).active, false);
  });
});

describe("POST /brokerage", () => {
  it("validates the body", async () => {
    const base = { domain: name("v"), tier: "managed", buyer_email: "buyer@test.example", budget: 1000 };
    for (const [patch, path] of [
      [{ budget: 0 }, "budget"],
      [{ budget: 10.5 }, "budget"],
      [{ tier: "gold" }, "tier"],
      [{ buyer_email: "nope" }, "buyer_email"],
      [{ currency: "usd" }, "currency"],
      [{ domain: "not a domain" }, "domain"],
      [{ extra: 1 }, ""],
    ] as const) {
      const res = await create(a.credential, { ...base, ...patch });
      assert.equal(res.status, 400, JSON.stringify(patch));
      assert.equal(res.body.error.code, "validation_error");
      if (path) assert.ok(res.body.error.details?.some((d) => d.path === path), JSON.stringify(res.body));
    }
  });

  it("opens a case with a stable, unguessable progress URL of which only the hash is stored", async () => {
    const domain = name("open");
    const res = await create(a.credential, { domain, tier: "self_serve", buyer_email: "buyer@test.example", budget: 250_000, currency: "EUR" });
    assert.equal(res.status, 201);
    const c = res.body;
    assert.match(c.case_id, /^bc_[0-9A-Za-z]{22}$/);
    assert.equal(c.status, "OPEN");
    assert.equal(c.tier, "self_serve");
    assert.equal(c.budget, 250_000);
    assert.equal(c.currency, "EUR");
    assert.equal(c.final_price_cents, null);
    assert.equal(c.timeline.length, 1);
    assert.equal(c.timeline[0]?.status, "OPEN");
    const token = progressToken(c.case_id);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(c.progress_url, `${getEnv().APP_URL.replace(/\/$/, "")}/brokerage/${token}`);
    const [row] = await getDb().select().from(brokerageCases).where(eq(brokerageCases.id, c.case_id));
    assert.equal(row?.progressTokenHash, createHash("sha256").update(token).digest("hex"));
    assert.ok(!JSON.stringify(row).includes(token));
    assert.equal((await getCaseByProgressToken(getDb(), token))?.row.id, c.case_id);
    assert.equal(await getCaseByProgressToken(getDb(), progressToken("bc_0000000000000000000000")), null);
    const read = await getCase(a.credential, c.case_id);
    assert.equal(read.status, 200);
    assert.equal(read.body.progress_url, c.progress_url);
  });
});

describe("GET /brokerage/{case_id}", () => {
  it("is 404 for another partner's case and for the other environment", async () => {
    const c = await openCase(a.credential);
    for (const credential of [b.credential, aLive]) {
      const res = await getCase(credential, c.case_id);
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, "not_found");
    }
    assert.equal((await getCase(a.credential, "bc_0000000000000000000000")).status, 404);
  });
});

describe("state machine", () => {
  it("allows only the next step or CLOSED_NO_DEAL; COMPLETED needs a final price", async () => {
    const c = await openCase(a.credential);
    const move = (to: Parameters<typeof advanceBrokerageCase>[1]["to"], finalPriceCents?: number) =>
      advanceBrokerageCase(getDb(), { caseId: c.case_id, to, finalPriceCents, actor: staff });
    await assert.rejects(move("NEGOTIATING"), { code: "conflict" });
    await assert.rejects(move("COMPLETED", 1000), { code: "conflict" });
    await assert.rejects(move("COMPLETED"), { code: "validation_error" });
    await assert.rejects(move("RESEARCHING", 1000), { code: "validation_error" });
    await move("RESEARCHING");
    await assert.rejects(move("RESEARCHING"), { code: "conflict" });
    await move("NEGOTIATING");
    await assert.rejects(move("COMPLETED", 0), { code: "validation_error" });
    const done = await move("COMPLETED", 1_000_000);
    assert.equal(done.row.status, "COMPLETED");
    assert.deepEqual(done.timeline.map((t) => t.status), ["OPEN", "RESEARCHING", "NEGOTIATING", "COMPLETED"]);
    await assert.rejects(move("CLOSED_NO_DEAL"), { code: "conflict" });
    await assert.rejects(advanceBrokerageCase(getDb(), { caseId: "bc_0000000000000000000000", to: "RESEARCHING", actor: staff }), {
      code: "not_found",
    });
  });

  it("CLOSED_NO_DEAL from any open state, no event, and the domain becomes eligible again", async () => {
    const c = await openCase(a.credential);
    const closed = await advanceBrokerageCase(getDb(), { caseId: c.case_id, to: "CLOSED_NO_DEAL", note: "owner declined", actor: staff });
    assert.equal(closed.row.status, "CLOSED_NO_DEAL");
    assert.ok(closed.row.closedAt);
    assert.equal(closed.timeline.at(-1)?.note, "owner declined");
    const evts = await getDb().select().from(events).where(eq(events.partnerId, a.partnerId));
    assert.ok(!evts.some((e) => (e.data as { case?: { case_id?: string } }).case?.case_id === c.case_id));
    assert.equal((await eligibility(b.credential, c.domain)).body.eligible, true);
  });

  it("the CLI moves a case and refuses an illegal move", async () => {
    const c = await openCase(a.credential);
    const ctx = { db: async () => getDb(), actor: { type: "cli" as const } };
    const moved = (await runAdminCommand(commands, ["brokerage:advance", c.case_id, "--to", "RESEARCHING", "--note", "owner found"], ctx)) as Case;
    assert.equal(moved.status, "RESEARCHING");
    assert.equal(moved.timeline.at(-1)?.note, "owner found");
    await assert.rejects(runAdminCommand(commands, ["brokerage:advance", c.case_id, "--to", "COMPLETED", "--final-price", "500"], ctx), {
      code: "conflict",
    });
    await assert.rejects(runAdminCommand(commands, ["brokerage:advance", c.case_id, "--to", "OPEN"], ctx), { code: "validation_error" });
  });
});

describe("completion, event and payout", () => {
  const YEAR = 2001 + randomInt(20);

  async function completeAt(credential: TestCredential, tier: string, finalPrice: number, at: Date) {
    clock.reset();
    const c = await openCase(credential, tier);
    clock.freeze(at);
    for (const to of ["RESEARCHING", "NEGOTIATING"] as const) await advanceBrokerageCase(getDb(), { caseId: c.case_id, to, actor: staff });
    const done = await advanceBrokerageCase(getDb(), { caseId: c.case_id, to: "COMPLETED", finalPriceCents: finalPrice, actor: staff });
    clock.reset();
    return done.row;
  }

  it("fixes fee and share with integer arithmetic and emits brokerage.case_completed with data.case in the same transaction", async () => {
    const managed = await completeAt(a.credential, "managed", 1_234_567, new Date());
    // 15 % of 1,234,567 = 185,185.05 -> 185,185; 20 % of that = 37,037
    assert.equal(managed.serviceFeeCents, 185_185);
    assert.equal(managed.partnerShareCents, 37_037);
    const mine = await getDb().select().from(events).where(eq(events.type, "brokerage.case_completed"));
    const payload = mine.find((e) => (e.data as { case: { case_id: string } }).case.case_id === managed.id);
    assert.deepEqual(payload?.data, {
      case: {
        case_id: managed.id,
        domain: managed.domain,
        status: "COMPLETED",
        final_price_cents: 1_234_567,
        currency: "USD",
        partner_share_cents: 37_037,
      },
    });
    const audits = await getDb().select().from(auditLog).where(and(eq(auditLog.targetId, managed.id), eq(auditLog.action, "brokerage.case_advanced")));
    assert.equal(audits.length, 3);

    await getDb().update(partners).set({ brokerageShareBps: 3333 }).where(eq(partners.id, b.partnerId));
    const selfServe = await completeAt(b.credential, "self_serve", 999_995, new Date());
    // 10 % of 999,995 = 99,999.5 -> 100,000 (halves up); 33.33 % of that = 33,330
    assert.equal(selfServe.serviceFeeCents, 100_000);
    assert.equal(selfServe.partnerShareCents, 33_330);
    const read = await getCase(b.credential, selfServe.id);
    assert.equal(read.body.final_price_cents, 999_995);
    assert.equal(read.body.partner_share_cents, 33_330);
  });

  it("pays the share once, at the first settlement run after the month of completion", async () => {
    const seller = await createTestPartner({ scopes: ["broker", "report"] });
    const c = await completeAt(seller.credential, "managed", 2_000_000, new Date(Date.UTC(YEAR, 4, 20, 12)));
    const brokeragePayouts = () =>
      getDb().select().from(payouts).where(and(eq(payouts.partnerId, seller.partnerId), eq(payouts.kind, "brokerage")));

    clock.freeze(new Date(Date.UTC(YEAR, 4, 31)));
    const early = await settleBrokerageShares(getDb(), { asOf: new Date(Date.UTC(YEAR, 4, 31)) });
    assert.ok(!early.some((p) => p.caseId === c.id), "the month of completion has not ended");
    assert.equal((await brokeragePayouts()).length, 0);

    const asOf = new Date(Date.UTC(YEAR, 5, 1));
    clock.freeze(asOf);
    const run = await runSettlement(getDb(), { asOf });
    assert.deepEqual(
      run.brokeragePayouts.filter((p) => p.caseId === c.id).map((p) => p.amountCents),
      [60_000],
    );
    const again = await runSettlement(getDb(), { asOf: new Date(Date.UTC(YEAR, 6, 1)) });
    assert.ok(!again.brokeragePayouts.some((p) => p.caseId === c.id));
    clock.reset();
    const rows = await brokeragePayouts();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.amountCents, 60_000); // 15 % of 2,000,000 = 300,000; 20 % = 60,000
    assert.equal(rows[0]?.periodStart, `${YEAR}-05-01`);
    assert.equal(rows[0]?.periodEnd, `${YEAR}-06-01`);
  });
});

describe("GET /brokerage", () => {
  it("lists own cases newest first with filters and keyset paging", async () => {
    const p = await createTestPartner({ scopes: ["broker", "report"] });
    const made: Case[] = [];
    for (let i = 0; i < 3; i++) made.push(await openCase(p.credential));
    const closedCase = made[0]!;
    await advanceBrokerageCase(getDb(), { caseId: closedCase.case_id, to: "CLOSED_NO_DEAL", actor: staff });

    const first = await list(p.credential, "limit=2");
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.data.map((c) => c.case_id), [made[2]!.case_id, made[1]!.case_id]);
    assert.ok(first.body.next_cursor);
    const second = await list(p.credential, `limit=2&cursor=${first.body.next_cursor}`);
    assert.deepEqual(second.body.data.map((c) => c.case_id), [closedCase.case_id]);
    assert.equal(second.body.next_cursor, null);
    assert.equal(second.body.data[0]?.status, "CLOSED_NO_DEAL");

    const open = await list(p.credential, "status=OPEN,RESEARCHING");
    assert.deepEqual(open.body.data.map((c) => c.case_id), [made[2]!.case_id, made[1]!.case_id]);
    const future = await list(p.credential, "from=2999-01-01");
    assert.deepEqual(future.body.data, []);
    assert.equal((await list(p.credential, "cursor=bogus")).status, 400);
    assert.equal((await list(p.credential, "from=2020-02-01&to=2020-01-01")).status, 400);
    assert.equal((await list(p.credential, "status=DONE")).status, 400);
    assert.deepEqual((await list(b.credential, "limit=100")).body.data.filter((c) => made.some((m) => m.case_id === c.case_id)), []);
  });
});
