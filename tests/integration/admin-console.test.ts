import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { auditLog, events, orders, partners, productionAccessRequests, settlements, users } from "@/db/schema";
import type { SessionUser } from "@/server/auth/session";
import { requestProductionAccess } from "@/server/services/account";
import { addDomain } from "@/server/services/inventory";
import { createOrder } from "@/server/services/orders";
import { createBrokerageCase, getCaseByProgressToken, progressToken } from "@/server/services/brokerage";
import { setSiteProbe } from "@/server/services/site-probe";
import { createFixtureOrder } from "../helpers/orders";
import { clock } from "@/server/clock";
import { createUser } from "@/server/services/partners";
import { appRouter, createCaller } from "@/server/trpc/routers/_app";
import { runAdmin } from "../helpers/cli";
import { createTestPartner, uniqueSuffix } from "../helpers/partner";
import { isCode } from "../helpers/trpc";

// The admin console's procedures against the real database: every one of them
// refuses everyone but staff (enumerated from the router, not a sample), and a
// decision made in the console and one made with the CLI come out the same.

after(closeDb);

async function staff(): Promise<SessionUser> {
  const created = await createUser(getDb(), { email: `staff-${uniqueSuffix()}@ops.example`, password: "staff-password-1", role: "admin" });
  return { id: created.userId, email: created.email, name: null, role: "admin", partnerId: null, partnerRole: null };
}

async function partnerOwner(partnerId: string, partnerRole: SessionUser["partnerRole"] = "owner"): Promise<SessionUser> {
  const [row] = await getDb().select().from(users).where(eq(users.partnerId, partnerId));
  assert.ok(row);
  return { id: row.id, email: row.email, name: row.name, role: "partner", partnerId, partnerRole };
}

const callerFor = (user: SessionUser | null) => createCaller({ db: getDb(), user, environment: "sandbox" });

/** Calls `path` (e.g. "admin.accessRequests.list") on a caller with `input`. */
function call(caller: ReturnType<typeof callerFor>, path: string, input: unknown): Promise<unknown> {
  let target: unknown = caller;
  for (const part of path.split(".")) target = (target as Record<string, unknown>)[part];
  return (target as (input: unknown) => Promise<unknown>)(input);
}

async function pendingRequest(partnerId: string, requestedBy: string) {
  await getDb().update(partners).set({ liveApprovedAt: null }).where(eq(partners.id, partnerId));
  return requestProductionAccess(
    getDb(),
    { partnerId, requestedBy, website: "https://reseller.example", useCase: "We resell domains to our hosting customers.", expectedMonthlyOrders: 40 },
    { type: "partner", id: requestedBy },
  );
}

describe("admin console procedures", () => {
  const adminPaths = Object.keys(appRouter._def.procedures).filter((path) => path.startsWith("admin."));

  it("every admin procedure answers FORBIDDEN to partner staff of each role and to customers, UNAUTHORIZED signed out", async () => {
    assert.ok(adminPaths.length >= 3, adminPaths.join());
    const { partnerId } = await createTestPartner();
    const customer = await createUser(getDb(), { email: `buyer-${uniqueSuffix()}@shop.example`, password: "buyer-password-1", role: "customer" });
    const owner = await partnerOwner(partnerId);
    const identities: Array<[string, SessionUser]> = [
      ...(["owner", "developer", "finance", "viewer"] as const).map((role): [string, SessionUser] => [`partner ${role}`, { ...owner, partnerRole: role }]),
      ["customer", { id: customer.userId, email: customer.email, name: null, role: "customer", partnerId: null, partnerRole: null }],
    ];
    const before = await getDb().select().from(productionAccessRequests).where(eq(productionAccessRequests.partnerId, partnerId));
    const table: string[] = [];
    for (const path of adminPaths) {
      for (const [label, user] of identities) {
        // Valid-looking input: the refusal must come from the role, before the input is read.
        await assert.rejects(call(callerFor(user), path, { requestId: "par_x", decision: "approved", note: "because" }), isCode("forbidden"), `${label} ${path}`);
      }
      await assert.rejects(call(callerFor(null), path, {}), isCode("unauthorized"), `signed out ${path}`);
      table.push(path);
    }
    assert.deepEqual(await getDb().select().from(productionAccessRequests).where(eq(productionAccessRequests.partnerId, partnerId)), before);
    assert.ok(table.includes("admin.accessRequests.decide") && table.includes("admin.overview"));
  });

  it("staff approve from the console with a reason: live access, the partner sees it, audited with before and after", async () => {
    const admin = callerFor(await staff());
    const { partnerId } = await createTestPartner();
    const owner = await partnerOwner(partnerId);
    const request = await pendingRequest(partnerId, owner.id);

    const pending = await admin.admin.accessRequests.list({ status: "pending", limit: 100 });
    assert.ok(pending.requests.some((r) => r.id === request.id));
    assert.ok((await admin.admin.overview()).pendingAccessRequests >= 1);
    await assert.rejects(admin.admin.accessRequests.decide({ requestId: request.id, decision: "approved", note: "" }), isCode("validation_error"));

    const decided = await admin.admin.accessRequests.decide({ requestId: request.id, decision: "approved", note: "Website and volumes check out." });
    assert.equal(decided.status, "approved");
    await assert.rejects(admin.admin.accessRequests.decide({ requestId: request.id, decision: "declined", note: "twice" }), isCode("not_found"));
    const organisation = await callerFor(owner).account.organisation();
    assert.ok(organisation.liveApprovedAt);
    assert.equal(organisation.accessRequest?.decisionNote, "Website and volumes check out.");
    const live = await createCaller({ db: getDb(), user: owner, environment: "live" }).keys.create({ name: "Live", scopes: ["search"], allowedCidrs: "" });
    assert.match(live.keyId, /^pk_live_/);
    const [audit] = await getDb().select().from(auditLog).where(eq(auditLog.action, "partner.production_access_approved")).orderBy(auditLog.id);
    const rows = await getDb().select().from(auditLog).where(eq(auditLog.targetId, partnerId));
    const approval = rows.find((r) => r.action === "partner.production_access_approved");
    assert.ok(audit && approval);
    assert.equal(approval.actorType, "admin");
    assert.deepEqual(approval.data, { request_id: request.id, before: "pending", after: "approved", reason: "Website and volumes check out." });
  });

  it("the CLI and the console decide through the same service: the same rows come out", async () => {
    const admin = await staff();
    const decide = async (how: "console" | "cli") => {
      const { partnerId } = await createTestPartner();
      const owner = await partnerOwner(partnerId);
      const request = await pendingRequest(partnerId, owner.id);
      const note = "Not enough detail about the buyers.";
      const answer =
        how === "console"
          ? await callerFor(admin).admin.accessRequests.decide({ requestId: request.id, decision: "declined", note })
          : (JSON.parse((await runAdmin("partner:access-decide", "--request", request.id, "--decline", "--note", note)).stdout) as Record<string, unknown>);
      const [row] = await getDb().select().from(productionAccessRequests).where(eq(productionAccessRequests.id, request.id));
      const [partner] = await getDb().select().from(partners).where(eq(partners.id, partnerId));
      const audit = (await getDb().select().from(auditLog).where(eq(auditLog.targetId, partnerId))).find((r) => r.action === "partner.production_access_declined");
      const strip = (value: Record<string, unknown>) => ({ ...value, id: "-", partnerId: "-", createdAt: "-", decidedAt: "-", request_id: "-" });
      return {
        answer: strip(answer as Record<string, unknown>),
        row: { status: row?.status, note: row?.decisionNote, decided: Boolean(row?.decidedAt) },
        live: partner?.liveApprovedAt ?? null,
        audit: audit ? strip(audit.data as Record<string, unknown>) : null,
      };
    };
    const viaConsole = await decide("console");
    const viaCli = await decide("cli");
    assert.deepEqual(viaCli, viaConsole);
    assert.equal(viaConsole.row.status, "declined");
  });

  it("staff move a held order through review to a completed transfer, each with a reason the partner sees", async () => {
    const admin = callerFor(await staff());
    const { partnerId } = await createTestPartner();
    const owner = await partnerOwner(partnerId);
    const domain = `held-${uniqueSuffix()}.com`;
    await addDomain(getDb(), { environment: "sandbox", name: domain, priceCents: 1_500_000 });
    const { order } = await createOrder(getDb(), {
      partnerId,
      environment: "sandbox",
      domain,
      expectedPriceCents: 1_500_000,
      currency: "USD",
      buyer: { email: "big-buyer@example.com" },
      actor: { type: "partner", id: owner.id },
    });
    assert.equal(order.status, "MANUAL_REVIEW");

    const queue = await admin.admin.orders.list({ status: "MANUAL_REVIEW", q: domain.slice(0, 12), limit: 100 });
    assert.deepEqual(queue.orders.map((o) => o.id), [order.id]);
    assert.deepEqual((await admin.admin.orders.get({ id: order.id })).actions, ["clear_review", "cancel", "refund"]);
    await assert.rejects(admin.admin.orders.transition({ id: order.id, action: "clear_review", reason: "" }), isCode("validation_error"));
    await assert.rejects(admin.admin.orders.transition({ id: order.id, action: "complete_transfer", reason: "too early" }), isCode("conflict"));

    const steps = [
      ["clear_review", "Buyer identity verified by phone."],
      ["start_transfer", "Auth code sent to the buyer's registrar."],
      ["complete_transfer", "Registrar confirmed the transfer."],
    ] as const;
    for (const [action, reason] of steps) await admin.admin.orders.transition({ id: order.id, action, reason });
    const done = await admin.admin.orders.get({ id: order.id });
    assert.equal(done.order.status, "TRANSFER_COMPLETED");
    assert.deepEqual(done.actions, []);

    // The partner's own view of the order carries the staff reasons; the events follow the moves.
    const seen = await callerFor(owner).orders.get({ id: order.id });
    const notes = JSON.stringify(seen);
    for (const [, reason] of steps) assert.ok(notes.includes(reason), reason);
    const types = (await getDb().select({ type: events.type }).from(events).where(eq(events.partnerId, partnerId)).orderBy(events.id)).map((e) => e.type);
    assert.deepEqual(types, ["order.recorded", "order.manual_review_cleared", "order.transfer_started", "order.transfer_completed"]);
    const audits = (await getDb().select().from(auditLog).where(eq(auditLog.targetId, order.id))).filter((a) => a.actorType === "admin");
    assert.deepEqual(
      audits.map((a) => [a.action, (a.data as { note: string }).note]).sort(),
      steps.map(([action, reason]) => [`order.${action}`, reason]).sort(),
    );
    const [row] = await getDb().select().from(orders).where(eq(orders.id, order.id));
    assert.ok(row?.transferCompletedAt);

    // The audit viewer: by entity, by action family and actor type, paged newest first.
    const byEntity = await admin.admin.audit({ targetId: order.id, actorType: "admin", limit: 2 });
    assert.deepEqual(byEntity.entries.map((e) => e.action), ["order.complete_transfer", "order.start_transfer"]);
    assert.ok(byEntity.nextCursor);
    const older = await admin.admin.audit({ targetId: order.id, actorType: "admin", limit: 2, cursor: byEntity.nextCursor });
    assert.deepEqual(older.entries.map((e) => e.action), ["order.clear_review"]);
    assert.deepEqual(byEntity.entries[0]?.data, { from: "TRANSFER_IN_PROGRESS", to: "TRANSFER_COMPLETED", note: "Registrar confirmed the transfer." });
    assert.match(byEntity.entries[0]?.actor ?? "", /@ops\.example$/);
    const family = await admin.admin.audit({ action: "order", partnerId, limit: 50 });
    assert.ok(family.entries.length >= 4 && family.entries.every((e) => e.action.startsWith("order.")));
    const none = await admin.admin.audit({ targetId: order.id, to: new Date(Date.UTC(2000, 0, 1)).toISOString() });
    assert.equal(none.entries.length, 0);
    await assert.rejects(admin.admin.audit({ cursor: "not-an-id" }), isCode("validation_error"));
  });

  it("a settlement preview is the run itself rolled back: it writes nothing, and the run then closes exactly that", async () => {
    const admin = callerFor(await staff());
    const { partnerId } = await createTestPartner();
    const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 10, 12));
    const sold = [
      await createFixtureOrder({ partnerId, environment: "live", priceCents: 20_000, completedAt: lastMonth }),
      await createFixtureOrder({ partnerId, environment: "live", priceCents: 30_000, completedAt: lastMonth }),
    ];
    clock.reset();
    const scope = { asOf: new Date().toISOString(), partnerId, environment: "live" as const };
    const statuses = async () => (await getDb().select({ status: orders.status }).from(orders).where(eq(orders.partnerId, partnerId))).map((o) => o.status).sort();
    const eventCount = async () => (await getDb().select().from(events).where(eq(events.partnerId, partnerId))).length;
    const eventsBefore = await eventCount();

    const preview = await admin.admin.settlements.preview(scope);
    assert.equal(preview.statements.length, 1);
    assert.deepEqual([preview.statements[0]?.orderCount, preview.statements[0]?.grossSoldCents], [2, 50_000]);
    assert.deepEqual(await statuses(), ["TRANSFER_COMPLETED", "TRANSFER_COMPLETED"], "nothing settled by the preview");
    assert.equal((await getDb().select().from(settlements).where(eq(settlements.partnerId, partnerId))).length, 0);
    assert.equal(await eventCount(), eventsBefore, "no events from the preview");

    await assert.rejects(admin.admin.settlements.run({ ...scope, reason: "" }), isCode("validation_error"));
    const run = await admin.admin.settlements.run({ ...scope, reason: "Month-end close for this partner." });
    assert.deepEqual(run.statements, preview.statements);
    assert.deepEqual(await statuses(), ["SETTLED", "SETTLED"]);
    assert.equal(sold.length, 2);
    const [audit] = (await getDb().select().from(auditLog).where(eq(auditLog.action, "settlement.run"))).filter((a) => a.partnerId === partnerId);
    assert.equal((audit?.data as { reason: string }).reason, "Month-end close for this partner.");
    // The partner sees the statement in the dashboard's finance data.
    const owner = await partnerOwner(partnerId);
    const live = createCaller({ db: getDb(), user: owner, environment: "live" });
    assert.equal((await live.finance.settlements({})).data.length, 1);
  });

  it("partners: search, one partner's page from every screen's service, the affiliate switch and a key revoked with a reason", async () => {
    const admin = callerFor(await staff());
    const { partnerId, email, credential } = await createTestPartner();
    const found = await admin.admin.partners.list({ q: email.toUpperCase(), limit: 10 });
    assert.deepEqual(found.partners.map((p) => p.id), [partnerId]);
    await assert.rejects(admin.admin.partners.list({ cursor: "nope" }), isCode("validation_error"));

    const page = await admin.admin.partners.get({ id: partnerId });
    assert.equal(page.organisation.id, partnerId);
    const sandbox = page.environments.find((e) => e.environment === "sandbox");
    assert.deepEqual(sandbox?.keys.map((k) => k.keyId), [credential.keyId]);
    await assert.rejects(admin.admin.partners.get({ id: "ptn_doesnotexist0000000000" }), isCode("not_found"));

    await admin.admin.partners.setAffiliate({ id: partnerId, isAffiliate: true });
    assert.equal((await admin.admin.partners.get({ id: partnerId })).organisation.isAffiliate, true);

    await assert.rejects(admin.admin.partners.revokeKey({ id: partnerId, keyId: credential.keyId, reason: "" }), isCode("validation_error"));
    const other = await createTestPartner();
    await assert.rejects(admin.admin.partners.revokeKey({ id: other.partnerId, keyId: credential.keyId, reason: "wrong partner" }), isCode("not_found"));
    await admin.admin.partners.revokeKey({ id: partnerId, keyId: credential.keyId, reason: "Key leaked in a public repository." });
    const [revoked] = (await getDb().select().from(auditLog).where(eq(auditLog.targetId, credential.keyId))).filter((a) => a.action === "credential.revoked");
    assert.deepEqual(revoked?.data, { reason: "Key leaked in a public repository." });
    assert.equal(revoked?.actorType, "admin");
    const after = (await admin.admin.partners.get({ id: partnerId })).environments.find((e) => e.environment === "sandbox");
    assert.equal(after?.keys[0]?.status, "revoked");
  });

  it("brokerage: the queue across partners, moves and notes the buyer reads on the progress page", async () => {
    const admin = callerFor(await staff());
    const { partnerId } = await createTestPartner();
    setSiteProbe(async () => ({ active: false, detail: "test: no site" }));
    try {
      const { row } = await createBrokerageCase(getDb(), {
        partnerId,
        environment: "sandbox",
        domain: `wanted-${uniqueSuffix()}.com`,
        tier: "managed",
        buyerEmail: "buyer@test.example",
        budgetCents: 500_000,
        currency: "USD",
        actor: { type: "partner" },
      });
      const queue = await admin.admin.brokerage.list({ statuses: ["OPEN"], q: row.domain, limit: 10 });
      assert.deepEqual(queue.cases.map((c) => [c.id, c.partnerId]), [[row.id, partnerId]]);
      assert.deepEqual((await admin.admin.brokerage.get({ id: row.id })).next, ["RESEARCHING", "CLOSED_NO_DEAL"]);
      await assert.rejects(admin.admin.brokerage.advance({ id: row.id, to: "COMPLETED", note: "too soon", finalPriceCents: 1 }), isCode("conflict"));

      await admin.admin.brokerage.advance({ id: row.id, to: "RESEARCHING", note: "We found the owner's registrar." });
      await admin.admin.brokerage.note({ id: row.id, note: "The owner replied; we expect an answer Friday." });
      await admin.admin.brokerage.advance({ id: row.id, to: "NEGOTIATING", note: "Offer made at your budget." });
      const done = await admin.admin.brokerage.advance({ id: row.id, to: "COMPLETED", note: "Deal closed.", finalPriceCents: 450_000 });
      assert.equal(done.case.status, "COMPLETED");
      assert.deepEqual(done.next, []);
      await assert.rejects(admin.admin.brokerage.note({ id: row.id, note: "x" }), isCode("validation_error"));

      const publicView = await getCaseByProgressToken(getDb(), progressToken(row.id));
      const notes = publicView?.timeline.map((t) => t.note);
      assert.ok(notes?.includes("The owner replied; we expect an answer Friday."));
      assert.ok(notes?.includes("Offer made at your budget."));
      const actions = (await admin.admin.audit({ targetId: row.id, actorType: "admin", limit: 10 })).entries.map((e) => e.action);
      assert.deepEqual(actions.sort(), ["brokerage.case_advanced", "brokerage.case_advanced", "brokerage.case_advanced", "brokerage.note_added"]);
    } finally {
      setSiteProbe();
    }
  });
});
