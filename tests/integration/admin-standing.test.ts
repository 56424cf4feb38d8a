import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { auditLog, events, partners, payouts } from "@/db/schema";
import * as availabilityRoute from "@/app/api/partner/v1/availability/route";
import * as payoutsRoute from "@/app/api/partner/v1/payouts/route";
import type { SessionUser } from "@/server/auth/session";
import { clock } from "@/server/clock";
import { createCheckoutSession, getCheckoutView } from "@/server/services/checkout";
import { addDomain } from "@/server/services/inventory";
import { createUser } from "@/server/services/partners";
import { runSettlement } from "@/server/services/settlements";
import { createCaller } from "@/server/trpc/routers/_app";
import { runAdmin } from "../helpers/cli";
import { createFixtureOrder } from "../helpers/orders";
import { addCredential, callRoute, createTestPartner, uniqueSuffix, type TestCredential } from "../helpers/partner";
import { isCode } from "../helpers/trpc";

// The partner-wide decisions of the admin console (suspension, terms) and the
// payouts staff mark paid, driven through the console's procedures and the
// operations CLI against the real database and the real signing gate.

after(closeDb);

async function staffCaller() {
  const created = await createUser(getDb(), { email: `staff-${uniqueSuffix()}@ops.example`, password: "staff-password-1", role: "admin" });
  const user: SessionUser = { id: created.userId, email: created.email, name: null, role: "admin", partnerId: null, partnerRole: null };
  return { user, caller: createCaller({ db: getDb(), user, environment: "sandbox" }) };
}

const availability = (credential: TestCredential) =>
  callRoute<{ error?: { code: string; message: string } }>(availabilityRoute.GET, { url: "/api/partner/v1/availability?domain=example.com", credential });

async function auditOf(targetId: string, action: string) {
  return getDb().select().from(auditLog).where(and(eq(auditLog.targetId, targetId), eq(auditLog.action, action)));
}

describe("suspending a partner", () => {
  it("stops every key of both environments at the next request and reinstating restores them; audited with the reason", async () => {
    const { caller, user } = await staffCaller();
    const { partnerId, credential: sandbox } = await createTestPartner();
    const live = await addCredential(partnerId, "live", ["search"]);
    assert.equal((await availability(sandbox)).status, 200);
    assert.equal((await availability(live)).status, 200);

    await caller.admin.partners.suspend({ id: partnerId, reason: "chargebacks under investigation" });
    for (const credential of [sandbox, live]) {
      const res = await availability(credential);
      assert.equal(res.status, 403);
      assert.equal(res.body.error?.code, "partner_suspended");
    }
    // A wrongly signed request learns nothing about the suspension.
    const forged = await availability({ ...sandbox, secret: "0".repeat(64) });
    assert.equal(forged.status, 401);
    const organisation = await caller.admin.partners.get({ id: partnerId });
    assert.equal(organisation.organisation.suspendedReason, "chargebacks under investigation");
    await assert.rejects(caller.admin.partners.suspend({ id: partnerId, reason: "again" }), isCode("conflict"));

    await caller.admin.partners.reinstate({ id: partnerId, reason: "investigation closed" });
    assert.equal((await availability(sandbox)).status, 200);
    assert.equal((await availability(live)).status, 200);
    await assert.rejects(caller.admin.partners.reinstate({ id: partnerId, reason: "again" }), isCode("conflict"));

    const [suspended] = await auditOf(partnerId, "partner.suspended");
    assert.equal(suspended?.actorId, user.id);
    assert.deepEqual((suspended?.data as { reason: string }).reason, "chargebacks under investigation");
    const [reinstated] = await auditOf(partnerId, "partner.reinstated");
    assert.equal((reinstated?.data as { before: { suspendedReason: string } }).before.suspendedReason, "chargebacks under investigation");
  });

  it("closes the partner's hosted checkout links while suspended", async () => {
    const { caller } = await staffCaller();
    const { partnerId } = await createTestPartner({ paymentModel: "non_mor" });
    const name = `susp-${uniqueSuffix()}.com`;
    await addDomain(getDb(), { environment: "sandbox", name, priceCents: 12_000 });
    const session = await createCheckoutSession(getDb(), { partnerId, environment: "sandbox", domain: name });
    const { token } = session;
    assert.equal((await getCheckoutView(getDb(), token)).kind, "open");
    await caller.admin.partners.suspend({ id: partnerId, reason: "fraud review" });
    assert.equal((await getCheckoutView(getDb(), token)).kind, "unavailable");
    await caller.admin.partners.reinstate({ id: partnerId, reason: "cleared" });
    assert.equal((await getCheckoutView(getDb(), token)).kind, "open");
  });

  it("the CLI and the console suspend the same way", async () => {
    const { caller } = await staffCaller();
    const [a, b] = [await createTestPartner(), await createTestPartner()];
    await caller.admin.partners.suspend({ id: a.partnerId, reason: "same reason" });
    const cli = await runAdmin("partner:suspend", "--partner", b.partnerId, "--reason", "same reason", "--json");
    assert.equal(cli.code, 0, cli.stderr);
    const shape = async (partnerId: string) => {
      const [row] = await getDb().select().from(partners).where(eq(partners.id, partnerId));
      const [audit] = await auditOf(partnerId, "partner.suspended");
      return { suspended: Boolean(row?.suspendedAt), reason: row?.suspendedReason, data: { ...(audit?.data as object), after: undefined } };
    };
    assert.deepEqual(await shape(b.partnerId), await shape(a.partnerId));
    assert.equal((await availability(b.credential)).body.error?.code, "partner_suspended");
    const missing = await runAdmin("partner:suspend", "--partner", b.partnerId);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /--reason/);
  });
});

describe("partner terms", () => {
  it("changes only what is given, audits before and after, and refuses bad or empty changes without writing", async () => {
    const { caller } = await staffCaller();
    const { partnerId } = await createTestPartner();
    const result = await caller.admin.partners.setTerms({ id: partnerId, paymentModel: "non_mor", saleCommissionBps: 1250, reason: "renegotiated for 2027" });
    assert.deepEqual(result.terms, { paymentModel: "non_mor", saleCommissionBps: 1250, referralCommissionBps: 1000, brokerageShareBps: 2000 });
    const [audit] = await auditOf(partnerId, "partner.terms_changed");
    assert.deepEqual(audit?.data, {
      before: { paymentModel: "mor", saleCommissionBps: 1000 },
      after: { paymentModel: "non_mor", saleCommissionBps: 1250 },
      reason: "renegotiated for 2027",
    });
    await assert.rejects(caller.admin.partners.setTerms({ id: partnerId, saleCommissionBps: 10_001, reason: "too much" }), isCode("validation_error"));
    await assert.rejects(caller.admin.partners.setTerms({ id: partnerId, saleCommissionBps: 1250, reason: "no change" }), isCode("validation_error"));
    await assert.rejects(caller.admin.partners.setTerms({ id: partnerId, brokerageShareBps: 100, reason: "" }), isCode("validation_error"));
    const [row] = await getDb().select().from(partners).where(eq(partners.id, partnerId));
    assert.equal(row?.brokerageShareBps, 2000);
    assert.equal((await auditOf(partnerId, "partner.terms_changed")).length, 1);

    // The CLI calls the same service.
    const cli = await runAdmin("partner:set-terms", "--partner", partnerId, "--referral-bps", "1500", "--reason", "affiliate tier 2", "--json");
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal((JSON.parse(cli.stdout) as { terms: { referralCommissionBps: number } }).terms.referralCommissionBps, 1500);
    const bad = await runAdmin("partner:set-terms", "--partner", partnerId, "--reason", "nothing given");
    assert.equal(bad.code, 1);
  });
});

describe("payouts", () => {
  /** A settled hosted-checkout sale of last month: settlement writes a commission payout for it. */
  async function settledCommission(environment: "sandbox" | "live") {
    const { partnerId } = await createTestPartner({ paymentModel: "non_mor" });
    const credential = await addCredential(partnerId, environment, ["report"]);
    clock.reset();
    const now = clock.now();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 10));
    await createFixtureOrder({ partnerId, environment, channel: "checkout", priceCents: 40_000, completedAt: lastMonth });
    clock.reset(); // the fixture moves the service clock to the sale's dates
    await runSettlement(getDb(), { asOf: now, only: { partnerId, environment } });
    const [payout] = await getDb().select().from(payouts).where(and(eq(payouts.partnerId, partnerId), eq(payouts.environment, environment)));
    assert.ok(payout, "settlement wrote a payout");
    return { partnerId, credential, payout };
  }

  it("live payouts wait as pending until staff record the transfer; sandbox ones are paid when written", async () => {
    const sandbox = await settledCommission("sandbox");
    assert.equal(sandbox.payout.status, "paid");
    assert.ok(sandbox.payout.paidAt);

    const { caller, user } = await staffCaller();
    const live = await settledCommission("live");
    assert.equal(live.payout.status, "pending");
    assert.equal(live.payout.paidAt, null);
    const queue = await caller.admin.payouts.list({ status: "pending", partnerId: live.partnerId });
    assert.deepEqual(queue.payouts.map((p) => p.id), [live.payout.id]);

    const before = await callRoute<{ data: { status: string; reference: string | null }[] }>(payoutsRoute.GET, { url: "/api/partner/v1/payouts", credential: live.credential });
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.deepEqual(before.body.data.map((p) => [p.status, p.reference]), [["pending", null]]);

    const balance = async () => (await caller.admin.partners.get({ id: live.partnerId })).balances.find((b) => b.environment === "live");
    assert.equal((await balance())?.payoutsPendingCents, live.payout.amountCents);

    await assert.rejects(caller.admin.payouts.markPaid({ id: live.payout.id, reference: "x" }), isCode("validation_error"));
    const paid = await caller.admin.payouts.markPaid({ id: live.payout.id, reference: "SEPA-2026-11-0042" });
    assert.equal(paid.status, "paid");
    assert.equal(paid.reference, "SEPA-2026-11-0042");
    await assert.rejects(caller.admin.payouts.markPaid({ id: live.payout.id, reference: "SEPA-again" }), isCode("conflict"));
    assert.equal(await balance(), undefined, "nothing in flight once the payout is sent");

    const afterPaid = await callRoute<{ data: { status: string; reference: string | null; paid_at: string | null }[] }>(payoutsRoute.GET, {
      url: "/api/partner/v1/payouts",
      credential: live.credential,
    });
    assert.deepEqual(afterPaid.body.data.map((p) => [p.status, p.reference]), [["paid", "SEPA-2026-11-0042"]]);
    assert.ok(afterPaid.body.data[0]?.paid_at);
    const [event] = await getDb().select().from(events).where(and(eq(events.partnerId, live.partnerId), eq(events.type, "payout.paid")));
    assert.equal((event?.data as { payout: { id: string } }).payout.id, live.payout.id);
    const [audit] = await auditOf(live.payout.id, "payout.paid");
    assert.equal(audit?.actorId, user.id);
    assert.deepEqual((audit?.data as { after: unknown }).after, { status: "paid", reference: "SEPA-2026-11-0042" });
  });

  it("the CLI marks a payout paid the same way", async () => {
    const { caller } = await staffCaller();
    const [a, b] = [await settledCommission("live"), await settledCommission("live")];
    await caller.admin.payouts.markPaid({ id: a.payout.id, reference: "WIRE-1" });
    const cli = await runAdmin("payout:mark-paid", "--payout", b.payout.id, "--reference", "WIRE-1", "--json");
    assert.equal(cli.code, 0, cli.stderr);
    const shape = async (partnerId: string) => {
      const [row] = await getDb().select().from(payouts).where(eq(payouts.partnerId, partnerId));
      const [event] = await getDb().select().from(events).where(and(eq(events.partnerId, partnerId), eq(events.type, "payout.paid")));
      return { status: row?.status, reference: row?.reference, event: Boolean(event) };
    };
    assert.deepEqual(await shape(b.partnerId), await shape(a.partnerId));
    const listed = await runAdmin("payout:list", "--status", "paid", "--partner", b.partnerId, "--json");
    assert.equal((JSON.parse(listed.stdout) as { payouts: { id: string }[] }).payouts[0]?.id, b.payout.id);
    const again = await runAdmin("payout:mark-paid", "--payout", b.payout.id, "--reference", "WIRE-2");
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already paid/);
  });
});
