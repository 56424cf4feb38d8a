import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { closeDb, getDb } from "@/db/client";
import { commissionLedger, events, orders, payouts, settlements, type Environment } from "@/db/schema";
import * as payoutsRoute from "@/app/api/partner/v1/payouts/route";
import * as settlementsRoute from "@/app/api/partner/v1/settlements/route";
import * as transactionsRoute from "@/app/api/partner/v1/transactions/route";
import { clock } from "@/server/clock";
import { listPayoutsEndpoint, listSettlementsEndpoint, listTransactionsEndpoint } from "@/server/contracts/settlements";
import { scopes as allScopes } from "@/server/http/contract";
import type { OrderRow } from "@/server/services/order-states";
import { runSettlement, type ClosedStatement, type SettlementRunResult } from "@/server/services/settlements";
import { commissionCents } from "@/server/services/orders";
import { runAdmin as admin } from "../helpers/cli";
import { createFixtureOrder, refundFixtureOrder, setSaleCommissionBps } from "../helpers/orders";
import { addCredential, callRoute, createTestPartner, type TestCredential } from "../helpers/partner";

// Settlement against the real database. Periods are months of a random past
// year, so this suite never touches orders of the present (other suites) and
// reruns on one database land in fresh periods. A run is global (it closes
// every ended period), so assertions look only at this suite's partners.

type Statements = z.infer<typeof listSettlementsEndpoint.response>;
type Transactions = z.infer<typeof listTransactionsEndpoint.response>;
type Payouts = z.infer<typeof listPayoutsEndpoint.response>;
interface ErrorBody {
  error: { code: string; message: string; details?: { path: string }[] };
}

const YEAR = 2001 + randomInt(20);
const at = (month: number, day: number, hour = 12, minute = 0, second = 0, ms = 0) =>
  new Date(Date.UTC(YEAR, month - 1, day, hour, minute, second, ms));
const ymd = (month: number, day = 1) => `${YEAR}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

interface Actor {
  partnerId: string;
  credential: TestCredential;
}
let morA: Actor; // MoR, default 1000 bps
let morB: Actor; // MoR, 750 bps
let nonMorC: Actor; // non-MoR, 1250 bps, hosted checkout
let liveA: TestCredential;
const placed: OrderRow[] = [];
const notCompleted: OrderRow[] = [];
let refunded: OrderRow;

async function place(input: Parameters<typeof createFixtureOrder>[0]) {
  const order = await createFixtureOrder(input);
  placed.push(order);
  return order;
}

/** Runs settlement with the clock at `asOf`, as the scheduled job would. */
async function runAt(asOf: Date): Promise<SettlementRunResult> {
  clock.freeze(asOf);
  return runSettlement(getDb(), { asOf });
}

const ours = () => new Set([morA.partnerId, morB.partnerId, nonMorC.partnerId]);
const mine = (result: SettlementRunResult) => result.statements.filter((s) => ours().has(s.settlement.partnerId));
const keyOf = (s: ClosedStatement["settlement"]) => `${s.partnerId}|${s.environment}|${s.currency}|${s.periodStart}|${s.sequence}`;

async function orderById(id: string): Promise<OrderRow> {
  const [row] = await getDb().select().from(orders).where(eq(orders.id, id));
  assert.ok(row, `order ${id} exists`);
  return row;
}

/** The statement a group of orders must produce: sums of the per-order figures. */
function expectedFor(group: OrderRow[]) {
  const gross = group.reduce((sum, o) => sum + o.salePriceCents, 0);
  const commission = group.reduce((sum, o) => sum + o.commissionCents, 0);
  return { gross, commission, count: group.length };
}

function assertStatementMatches(statement: ClosedStatement, group: OrderRow[]) {
  const s = statement.settlement;
  const want = expectedFor(group);
  assert.equal(s.grossSoldCents, want.gross);
  assert.equal(s.commissionRetainedCents, want.commission);
  assert.equal(s.orderCount, want.count);
  assert.deepEqual([...statement.orderIds].sort(), group.map((o) => o.id).sort());
  if (s.paymentModel === "mor") {
    assert.equal(s.amountOwedCents, want.gross - want.commission, "owed = gross - commission");
    assert.equal(s.commissionPayableCents, null);
  } else {
    assert.equal(s.commissionPayableCents, want.commission);
    assert.equal(s.amountOwedCents, null);
  }
}

const inPeriod = (o: OrderRow, partnerId: string, env: Environment, currency: string, month: number) =>
  o.partnerId === partnerId &&
  o.environment === env &&
  o.currency === currency &&
  o.transferCompletedAt !== null &&
  o.transferCompletedAt.getUTCMonth() === month - 1;

async function settledEventsFor(orderIds: string[]) {
  const rows = await getDb()
    .select({ orderId: sql<string>`${events.data}->'order'->>'public_id'`, status: sql<string>`${events.data}->'order'->>'status'` })
    .from(events)
    .where(and(eq(events.type, "order.settled"), inArray(sql`${events.data}->'order'->>'public_id'`, orderIds)));
  return rows;
}

describe("settlement and reconciliation", () => {
  before(async () => {
    morA = await createTestPartner({ paymentModel: "mor" });
    morB = await createTestPartner({ paymentModel: "mor" });
    nonMorC = await createTestPartner({ paymentModel: "non_mor" });
    liveA = await addCredential(morA.partnerId, "live", [...allScopes]);
    await setSaleCommissionBps(morB.partnerId, 750);
    await setSaleCommissionBps(nonMorC.partnerId, 1250);

    // January: USD and EUR for A, a live sale for A, B on both sides of the month boundary.
    await place({ partnerId: morA.partnerId, priceCents: 10_000, completedAt: at(1, 10) });
    await place({ partnerId: morA.partnerId, priceCents: 12_345, completedAt: at(1, 20) }); // 1234.5 -> 1235
    await place({ partnerId: morA.partnerId, priceCents: 9_999, currency: "EUR", completedAt: at(1, 15) }); // 999.9 -> 1000
    await place({ partnerId: morA.partnerId, environment: "live", priceCents: 777, completedAt: at(1, 12) });
    await place({ partnerId: morB.partnerId, priceCents: 333, completedAt: at(1, 3) }); // 24.975 -> 25
    await place({ partnerId: morB.partnerId, priceCents: 101, completedAt: at(1, 31, 23, 59, 59, 999) }); // 7.575 -> 8; last ms of January
    await place({ partnerId: nonMorC.partnerId, channel: "checkout", priceCents: 8_001, completedAt: at(1, 9) }); // 1000.125 -> 1000
    await place({ partnerId: nonMorC.partnerId, channel: "checkout", priceCents: 999, completedAt: at(1, 19) }); // 124.875 -> 125
    // February.
    await place({ partnerId: morA.partnerId, priceCents: 5_000, completedAt: at(2, 5) });
    await place({ partnerId: morB.partnerId, priceCents: 2_000, completedAt: at(2, 1, 0, 0, 0, 0) }); // first ms of February
    await place({ partnerId: nonMorC.partnerId, channel: "checkout", priceCents: 5_000, currency: "EUR", completedAt: at(2, 10) });
    // Never settled: transfer in progress, merely paid, refunded.
    notCompleted.push(await createFixtureOrder({ partnerId: morA.partnerId, priceCents: 4_000, transferStartedAt: at(1, 25) }));
    notCompleted.push(await createFixtureOrder({ partnerId: morA.partnerId, priceCents: 4_100, createdAt: at(1, 26) }));
    refunded = await createFixtureOrder({ partnerId: morA.partnerId, priceCents: 3_000, createdAt: at(1, 5) });
    refunded = await refundFixtureOrder(refunded.id);
  });

  after(async () => {
    clock.reset();
    await closeDb();
  });

  describe("settlement run", () => {
    let january: SettlementRunResult;

    it("fixes commission per order: price * bps / 10000 to the nearest cent, halves up", () => {
      assert.equal(commissionCents(12_345, 1000), 1235);
      assert.equal(commissionCents(333, 750), 25);
      assert.equal(commissionCents(8_001, 1250), 1000);
      assert.equal(commissionCents(999, 1250), 125);
      const b = placed.filter((o) => o.partnerId === morB.partnerId);
      assert.ok(b.every((o) => o.commissionBps === 750));
    });

    it("as of mid-February closes only January: one statement per partner, environment, currency", async () => {
      january = await runAt(at(2, 15));
      const closed = mine(january);
      assert.ok(closed.every((s) => s.settlement.periodStart === ymd(1) && s.settlement.periodEnd === ymd(2)));
      const groups: [Actor, Environment, string, "mor" | "non_mor"][] = [
        [morA, "sandbox", "USD", "mor"],
        [morA, "sandbox", "EUR", "mor"],
        [morA, "live", "USD", "mor"],
        [morB, "sandbox", "USD", "mor"],
        [nonMorC, "sandbox", "USD", "non_mor"],
      ];
      assert.equal(closed.length, groups.length, JSON.stringify(closed.map((s) => keyOf(s.settlement))));
      for (const [who, env, currency, model] of groups) {
        const statement = closed.find(
          (s) => s.settlement.partnerId === who.partnerId && s.settlement.environment === env && s.settlement.currency === currency,
        );
        assert.ok(statement, `statement for ${env} ${currency}`);
        assert.equal(statement.settlement.paymentModel, model);
        assert.equal(statement.settlement.sequence, 1);
        assert.equal(statement.settlement.status, "closed");
        assertStatementMatches(statement, placed.filter((o) => inPeriod(o, who.partnerId, env, currency, 1)));
      }
      // Spot-check the arithmetic by hand, to the cent.
      const aUsd = closed.find((s) => s.settlement.partnerId === morA.partnerId && s.settlement.currency === "USD" && s.settlement.environment === "sandbox");
      assert.deepEqual(
        [aUsd?.settlement.grossSoldCents, aUsd?.settlement.commissionRetainedCents, aUsd?.settlement.amountOwedCents],
        [22_345, 2_235, 20_110],
      );
      const b = closed.find((s) => s.settlement.partnerId === morB.partnerId);
      assert.deepEqual([b?.settlement.grossSoldCents, b?.settlement.commissionRetainedCents, b?.settlement.amountOwedCents], [434, 33, 401]);
      const c = closed.find((s) => s.settlement.partnerId === nonMorC.partnerId);
      assert.deepEqual([c?.settlement.grossSoldCents, c?.settlement.commissionPayableCents], [9_000, 1_125]);
    });

    it("settles exactly the January orders, each with an order.settled event and its settlement id", async () => {
      const settledIds = mine(january).flatMap((s) => s.orderIds);
      for (const placedOrder of placed) {
        const order = await orderById(placedOrder.id);
        const january_ = placedOrder.transferCompletedAt!.getUTCMonth() === 0;
        assert.equal(order.status, january_ ? "SETTLED" : "TRANSFER_COMPLETED", `${order.id} completed ${placedOrder.transferCompletedAt?.toISOString()}`);
        if (january_) {
          const statement = mine(january).find((s) => s.orderIds.includes(order.id));
          assert.equal(order.settlementId, statement?.settlement.id);
        } else assert.equal(order.settlementId, null);
      }
      for (const untouched of [...notCompleted, refunded]) {
        const order = await orderById(untouched.id);
        assert.equal(order.status, untouched.status);
        assert.equal(order.settlementId, null);
      }
      const settledEvents = await settledEventsFor(settledIds);
      assert.deepEqual(settledEvents.map((e) => e.orderId).sort(), [...settledIds].sort(), "one order.settled per settled order");
      assert.ok(settledEvents.every((e) => e.status === "SETTLED"));
    });

    it("pays a non-MoR statement's commission as one payout and marks the sale commissions paid_out", async () => {
      const c = mine(january).find((s) => s.settlement.partnerId === nonMorC.partnerId);
      assert.ok(c?.payoutId);
      const rows = await getDb().select().from(payouts).where(eq(payouts.partnerId, nonMorC.partnerId));
      assert.equal(rows.length, 1);
      assert.deepEqual(
        { kind: rows[0]?.kind, amount: rows[0]?.amountCents, settlement: rows[0]?.settlementId, period: rows[0]?.periodStart },
        { kind: "commission", amount: 1_125, settlement: c.settlement.id, period: ymd(1) },
      );
      const ledger = await getDb().select().from(commissionLedger).where(inArray(commissionLedger.orderId, c.orderIds));
      assert.equal(ledger.length, 2);
      assert.ok(ledger.every((l) => l.state === "paid_out" && l.payoutId === c.payoutId));
      const morPayouts = await getDb().select().from(payouts).where(inArray(payouts.partnerId, [morA.partnerId, morB.partnerId]));
      assert.equal(morPayouts.length, 0, "MoR partners keep their commission; no payouts");
    });

    it("a rerun closes nothing", async () => {
      const again = await runAt(at(2, 15));
      assert.equal(again.statements.length, 0);
    });

    it("as of the first instant of March closes February, the boundary order in February", async () => {
      const february = await runAt(at(3, 1, 0, 0, 0, 0));
      const closed = mine(february);
      assert.equal(closed.length, 3, JSON.stringify(closed.map((s) => keyOf(s.settlement))));
      assert.ok(closed.every((s) => s.settlement.periodStart === ymd(2) && s.settlement.periodEnd === ymd(3)));
      for (const statement of closed) {
        const s = statement.settlement;
        assertStatementMatches(statement, placed.filter((o) => inPeriod(o, s.partnerId, s.environment, s.currency, 2)));
      }
      const b = closed.find((s) => s.settlement.partnerId === morB.partnerId);
      assert.deepEqual([b?.settlement.grossSoldCents, b?.settlement.commissionRetainedCents, b?.settlement.amountOwedCents], [2_000, 150, 1_850]);
      const cEur = closed.find((s) => s.settlement.partnerId === nonMorC.partnerId);
      assert.equal(cEur?.settlement.currency, "EUR");
      assert.equal(cEur?.settlement.commissionPayableCents, 625);
      assert.ok(cEur?.payoutId);
    });

    it("settles a late order of a closed period into a supplementary statement, leaving the original intact", async () => {
      const [original] = await getDb()
        .select()
        .from(settlements)
        .where(and(eq(settlements.partnerId, morA.partnerId), eq(settlements.environment, "sandbox"), eq(settlements.currency, "USD"), eq(settlements.periodStart, ymd(1))));
      assert.ok(original);
      const late = await place({ partnerId: morA.partnerId, priceCents: 1_999, completedAt: at(1, 28) }); // 199.9 -> 200
      const result = await runAt(at(3, 2));
      const closed = mine(result);
      assert.equal(closed.length, 1);
      const supplement = closed[0]!;
      assert.equal(supplement.settlement.periodStart, ymd(1));
      assert.equal(supplement.settlement.sequence, 2);
      assert.deepEqual(supplement.orderIds, [late.id]);
      assert.deepEqual([supplement.settlement.grossSoldCents, supplement.settlement.amountOwedCents], [1_999, 1_799]);
      const [unchanged] = await getDb().select().from(settlements).where(eq(settlements.id, original.id));
      assert.deepEqual(unchanged, original);
      assert.equal((await orderById(late.id)).settlementId, supplement.settlement.id);
    });

    it("an as-of past the clock closes the running month early; later completions get a supplement", async () => {
      const early = await place({ partnerId: morB.partnerId, priceCents: 1_000, completedAt: at(6, 5) });
      clock.freeze(at(6, 10));
      const closedEarly = mine(await runSettlement(getDb(), { asOf: at(7, 1) }));
      assert.deepEqual(
        closedEarly.map((s) => [s.settlement.periodStart, s.settlement.sequence, s.orderIds]),
        [[ymd(6), 1, [early.id]]],
      );
      const later = await place({ partnerId: morB.partnerId, priceCents: 3_000, completedAt: at(6, 20) });
      const supplement = mine(await runAt(at(7, 2)));
      assert.deepEqual(
        supplement.map((s) => [s.settlement.periodStart, s.settlement.sequence, s.orderIds, s.settlement.amountOwedCents]),
        [[ymd(6), 2, [later.id], 2_775]],
      );
    });

    it("two concurrent runs close each statement once", async () => {
      const april = [
        await place({ partnerId: morA.partnerId, priceCents: 1_000, completedAt: at(4, 2) }),
        await place({ partnerId: morA.partnerId, priceCents: 2_000, completedAt: at(4, 3) }),
        await place({ partnerId: morB.partnerId, priceCents: 3_000, completedAt: at(4, 4) }),
        await place({ partnerId: nonMorC.partnerId, channel: "checkout", priceCents: 4_000, completedAt: at(4, 5) }),
      ];
      clock.freeze(at(5, 3));
      const runs = await Promise.all([runSettlement(getDb(), { asOf: at(5, 3) }), runSettlement(getDb(), { asOf: at(5, 3) })]);
      const closed = runs.flatMap(mine);
      assert.equal(closed.length, 3, "A, B and C each get one April statement");
      assert.equal(new Set(closed.map((s) => keyOf(s.settlement))).size, 3);
      const inDb = await getDb()
        .select()
        .from(settlements)
        .where(and(inArray(settlements.partnerId, [...ours()]), eq(settlements.periodStart, ymd(4))));
      assert.equal(inDb.length, 3);
      const events_ = await settledEventsFor(april.map((o) => o.id));
      assert.equal(events_.length, april.length, "each order settled (and announced) once");
      const cPayouts = await getDb()
        .select()
        .from(payouts)
        .where(and(eq(payouts.partnerId, nonMorC.partnerId), eq(payouts.periodStart, ymd(4))));
      assert.equal(cPayouts.length, 1);
      assert.equal(cPayouts[0]?.amountCents, 500);
    });
  });

  describe("GET /settlements", () => {
    let cred: TestCredential;
    before(async () => {
      clock.reset();
      cred = await addCredential(morA.partnerId, "sandbox", ["buy"]);
    });
    const get = (credential: TestCredential, query = "") =>
      callRoute<Statements>(settlementsRoute.GET, { url: `/api/partner/v1/settlements${query ? `?${query}` : ""}`, credential });

    it("lists the partner's statements, newest period first, with owed = gross - commission", async () => {
      const res = await get(cred, "limit=100");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const periods = res.body.data.map((s) => `${s.period_start}/${s.currency}/${s.sequence}`);
      assert.deepEqual(periods, [`${ymd(4)}/USD/1`, `${ymd(2)}/USD/1`, ...periods.slice(2)]);
      assert.deepEqual(periods.slice(2).sort(), [`${ymd(1)}/EUR/1`, `${ymd(1)}/USD/1`, `${ymd(1)}/USD/2`]);
      for (const s of res.body.data) {
        assert.equal(s.amount_owed_cents, s.gross_sold_cents - s.commission_retained_cents);
        assert.deepEqual(Object.keys(s).sort(), Object.keys(listSettlementsEndpoint.response.shape.data.element.shape).sort());
      }
      const janUsd = res.body.data.find((s) => s.period_start === ymd(1) && s.currency === "USD" && s.sequence === 1);
      assert.deepEqual(
        [janUsd?.period_end, janUsd?.gross_sold_cents, janUsd?.commission_retained_cents, janUsd?.amount_owed_cents, janUsd?.order_count],
        [ymd(2), 22_345, 2_235, 20_110, 2],
      );
    });

    it("pages with limit and cursor without gaps or repeats", async () => {
      const all = (await get(cred, "limit=100")).body.data.map((s) => s.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: Statements } = await get(cred, `limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        assert.equal(page.status, 200);
        assert.ok(page.body.data.length <= 2);
        seen.push(...page.body.data.map((s) => s.id));
        cursor = page.body.next_cursor;
      } while (cursor);
      assert.deepEqual(seen, all);
      const bad = await get(cred, "cursor=not-a-cursor");
      assert.equal(bad.status, 400);
      assert.equal((bad.body as unknown as ErrorBody).error.details?.[0]?.path, "cursor");
    });

    it("filters by from/to on period_start and by currency", async () => {
      const fromFeb = await get(cred, `from=${ymd(2)}`);
      assert.deepEqual(fromFeb.body.data.map((s) => s.period_start), [ymd(4), ymd(2)]);
      const janOnly = await get(cred, `from=${ymd(1)}&to=${ymd(2)}T00:00:00Z`);
      assert.ok(janOnly.body.data.length === 3 && janOnly.body.data.every((s) => s.period_start === ymd(1)));
      const midJan = await get(cred, `from=${ymd(1, 15)}&to=${ymd(3)}`);
      assert.deepEqual(midJan.body.data.map((s) => s.period_start), [ymd(2)], "from is on period_start, not on order dates");
      const eur = await get(cred, "currency=eur");
      assert.deepEqual(eur.body.data.map((s) => [s.currency, s.gross_sold_cents]), [["EUR", 9_999]]);
      const inverted = await get(cred, `from=${ymd(3)}&to=${ymd(2)}`);
      assert.equal(inverted.status, 400);
      const malformed = await get(cred, "from=yesterday");
      assert.equal(malformed.status, 400);
      assert.equal((malformed.body as unknown as ErrorBody).error.details?.[0]?.path, "from");
    });

    it("is forbidden to a non-MoR partner", async () => {
      const res = await get(nonMorC.credential);
      assert.equal(res.status, 403);
      assert.equal((res.body as unknown as ErrorBody).error.code, "forbidden");
    });

    it("isolates partners and environments", async () => {
      const b = await get(morB.credential, "limit=100");
      const bIds = new Set(b.body.data.map((s) => s.id));
      const aIds = (await get(cred, "limit=100")).body.data.map((s) => s.id);
      assert.ok(aIds.every((id) => !bIds.has(id)), "B never sees A's statements");
      assert.deepEqual(b.body.data.map((s) => [s.period_start, s.sequence]), [
        [ymd(6), 2],
        [ymd(6), 1],
        [ymd(4), 1],
        [ymd(2), 1],
        [ymd(1), 1],
      ]);
      const live = await get(liveA);
      assert.deepEqual(live.body.data.map((s) => [s.period_start, s.gross_sold_cents]), [[ymd(1), 777]]);
      const freshLive = await createTestPartner({ environment: "live" });
      assert.deepEqual((await get(freshLive.credential)).body.data, []);
    });
  });

  describe("GET /transactions", () => {
    let cred: TestCredential;
    before(async () => {
      clock.reset();
      cred = await addCredential(morA.partnerId, "sandbox", ["report"]);
    });
    const get = (credential: TestCredential, query = "") =>
      callRoute<Transactions>(transactionsRoute.GET, { url: `/api/partner/v1/transactions${query ? `?${query}` : ""}`, credential });

    async function aSandboxOrders() {
      return getDb().select().from(orders).where(and(eq(orders.partnerId, morA.partnerId), eq(orders.environment, "sandbox")));
    }

    it("lists every order of the partner with per-currency totals over the whole filtered set", async () => {
      const rows = await aSandboxOrders();
      const first = await get(cred, "limit=1");
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.data.length, 1);
      assert.ok(first.body.next_cursor);
      const standing = rows.filter((o) => o.status !== "REFUNDED" && o.status !== "CANCELLED");
      const want = ["EUR", "USD"].map((currency) => ({
        currency,
        count: rows.filter((o) => o.currency === currency).length,
        gmv_cents: standing.filter((o) => o.currency === currency).reduce((s, o) => s + o.salePriceCents, 0),
        commission_cents: standing.filter((o) => o.currency === currency).reduce((s, o) => s + o.commissionCents, 0),
      }));
      assert.deepEqual(first.body.totals, want);
      // Walk every page: same totals, every order once, newest first.
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: Transactions } = await get(cred, `limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        assert.deepEqual(page.body.totals, want);
        ids.push(...page.body.data.map((t) => t.id));
        cursor = page.body.next_cursor;
      } while (cursor);
      assert.deepEqual(ids, rows.map((o) => o.id).sort().reverse());
    });

    it("shows the per-order figures that the statements sum", async () => {
      const res = await get(cred, `status=SETTLED&from=${ymd(1)}&to=${ymd(2)}&limit=100`);
      assert.equal(res.status, 200);
      const usd = res.body.data.filter((t) => t.currency === "USD");
      // Created in January, settled: the two January orders (the late one was created 27 Jan).
      assert.ok(usd.every((t) => t.status === "SETTLED" && t.settlement_id && t.payment_model === "mor"));
      for (const t of res.body.data) {
        assert.equal(t.commission_cents, commissionCents(t.sale_price_cents, t.commission_bps));
        assert.ok(t.transfer_completed_at);
      }
      const statements = await getDb().select().from(settlements).where(eq(settlements.partnerId, morA.partnerId));
      const all = await get(cred, "status=SETTLED&limit=100");
      assert.equal(all.body.data.length, statements.filter((s) => s.environment === "sandbox").reduce((n, s) => n + s.orderCount, 0));
      for (const statement of statements.filter((s) => s.environment === "sandbox")) {
        const of = all.body.data.filter((t) => t.settlement_id === statement.id);
        assert.equal(of.reduce((s, t) => s + t.sale_price_cents, 0), statement.grossSoldCents);
        assert.equal(of.reduce((s, t) => s + t.commission_cents, 0), statement.commissionRetainedCents);
      }
    });

    it("filters by status (comma list), payment_model, from and to", async () => {
      const refundedOnly = await get(cred, "status=REFUNDED");
      assert.deepEqual(refundedOnly.body.data.map((t) => t.id), [refunded.id]);
      assert.deepEqual(refundedOnly.body.totals, [{ currency: "USD", count: 1, gmv_cents: 0, commission_cents: 0 }]);
      const open = await get(cred, "status=TRANSFER_IN_PROGRESS,EXTERNALLY_PAID");
      assert.deepEqual(open.body.data.map((t) => t.id).sort(), notCompleted.map((o) => o.id).sort());
      assert.equal(open.body.totals[0]?.gmv_cents, 8_100);
      const checkout = await get(cred, "payment_model=checkout");
      assert.deepEqual([checkout.body.data, checkout.body.totals], [[], []]);
      const c = await get(nonMorC.credential, "payment_model=checkout&limit=100");
      assert.equal(c.body.data.length, 4);
      assert.ok(c.body.data.every((t) => t.payment_model === "checkout"));
      const february = await get(cred, `from=${ymd(2)}&to=${ymd(3)}`);
      assert.ok(february.body.data.every((t) => t.created_at >= `${ymd(2)}T` && t.created_at < `${ymd(3)}T`));
      assert.equal(february.body.data.length, 1, "A's February order was created 4 Feb");
      const bad = await get(cred, "status=SHIPPED");
      assert.equal(bad.status, 400);
      assert.match((bad.body as unknown as ErrorBody).error.details?.[0]?.path ?? "", /^status/);
    });

    it("isolates partners and environments", async () => {
      const live = await get(liveA, "limit=100");
      assert.deepEqual(
        live.body.data.map((t) => t.sale_price_cents),
        [777],
      );
      const b = await get(morB.credential, "limit=100");
      const aIds = new Set((await aSandboxOrders()).map((o) => o.id));
      assert.ok(b.body.data.length > 0 && b.body.data.every((t) => !aIds.has(t.id)));
    });
  });

  describe("GET /payouts", () => {
    const get = (credential: TestCredential, query = "") =>
      callRoute<Payouts>(payoutsRoute.GET, { url: `/api/partner/v1/payouts${query ? `?${query}` : ""}`, credential });
    before(() => clock.reset());

    it("lists a non-MoR partner's commission payouts after settlement, newest first", async () => {
      const res = await get(nonMorC.credential);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.data.map((p) => [p.kind, p.period_start, p.period_end, p.currency, p.amount_cents, p.status]),
        [
          ["commission", ymd(4), ymd(5), "USD", 500, "paid"],
          ["commission", ymd(2), ymd(3), "EUR", 625, "paid"],
          ["commission", ymd(1), ymd(2), "USD", 1_125, "paid"],
        ],
      );
      for (const p of res.body.data) {
        assert.ok(p.settlement_id && p.paid_at);
        assert.deepEqual(Object.keys(p).sort(), Object.keys(listPayoutsEndpoint.response.shape.data.element.shape).sort());
      }
      const paged = await get(nonMorC.credential, "limit=2");
      assert.equal(paged.body.data.length, 2);
      const rest = await get(nonMorC.credential, `limit=2&cursor=${encodeURIComponent(paged.body.next_cursor ?? "")}`);
      assert.deepEqual(
        [...paged.body.data, ...rest.body.data].map((p) => p.id),
        res.body.data.map((p) => p.id),
      );
      assert.equal(rest.body.next_cursor, null);
    });

    it("filters by kind and by from/to on created_at", async () => {
      assert.equal((await get(nonMorC.credential, "kind=commission")).body.data.length, 3);
      assert.equal((await get(nonMorC.credential, "kind=brokerage")).body.data.length, 0);
      // Payouts are created when the run closes the period (the clock stood at each run's as-of).
      const q1 = await get(nonMorC.credential, `from=${ymd(1)}&to=${ymd(4)}`);
      assert.deepEqual(q1.body.data.map((p) => p.period_start), [ymd(2), ymd(1)]);
    });

    it("shows nothing to other partners or the other environment", async () => {
      assert.deepEqual((await get(morA.credential)).body.data, []);
      assert.deepEqual((await get(morB.credential)).body.data, []);
      const cLive = await addCredential(nonMorC.partnerId, "live", ["report"]);
      assert.deepEqual((await get(cLive)).body.data, []);
    });
  });

  describe("settlement:run CLI", () => {
    it("prints the statements it closed as one JSON document; a malformed --as-of is a validation_error", async () => {
      const ok = await admin("settlement:run", "--as-of", `${YEAR}-01-01`, "--json");
      assert.equal(ok.code, 0, ok.stderr);
      const body = JSON.parse(ok.stdout) as { as_of: string; statements: unknown[] };
      assert.equal(body.as_of, `${YEAR}-01-01T00:00:00.000Z`);
      assert.ok(Array.isArray(body.statements));
      const malformed = await admin("settlement:run", "--as-of", "soon", "--json");
      assert.equal(malformed.code, 1);
      assert.match((JSON.parse(malformed.stderr) as ErrorBody).error.message, /--as-of/);
    });
  });
});

