import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { and, asc, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { closeDb, getDb } from "@/db/client";
import { auditLog, domains, events, orders, orderTimeline, payments } from "@/db/schema";
import { clock } from "@/server/clock";
import { orderStatuses } from "@/server/contracts/orders";
import { AppError } from "@/server/errors";
import { newId } from "@/server/ids";
import { serializeOrderSummary, transitionOrder, type OrderAction, type OrderRow, type OrderStatus } from "@/server/services/order-states";
import { getOrderForStaff } from "@/server/services/admin-orders";
import { runAdmin } from "../helpers/cli";
import { createTestPartner } from "../helpers/partner";

// The order state machine against the real database: every action from every
// status, and a property test over random action sequences. The expected
// moves are written out here independently of order-states.ts, so a change to
// the machine has to change this table too.

type Channel = "mor" | "checkout";
const actions: OrderAction[] = [
  "clear_review", "start_transfer", "complete_transfer", "settle", "refund", "partner_refund", "cancel", "dispute_open", "dispute_won", "dispute_lost", "refund_failed",
];
const beforeCompleted: OrderStatus[] = ["EXTERNALLY_PAID", "PAID", "MANUAL_REVIEW", "TRANSFER_IN_PROGRESS"];
const terminal: OrderStatus[] = ["SETTLED", "REFUNDED", "CANCELLED"];

/** The legal moves: action -> from -> to ("paid" = the paid state of the order's channel). */
const legal: Record<OrderAction, Partial<Record<OrderStatus, OrderStatus | "paid">>> = {
  clear_review: { MANUAL_REVIEW: "paid" },
  start_transfer: { EXTERNALLY_PAID: "TRANSFER_IN_PROGRESS", PAID: "TRANSFER_IN_PROGRESS" },
  complete_transfer: { TRANSFER_IN_PROGRESS: "TRANSFER_COMPLETED" },
  settle: { TRANSFER_COMPLETED: "SETTLED" },
  refund: Object.fromEntries(beforeCompleted.map((s) => [s, "REFUNDED"])),
  cancel: Object.fromEntries(beforeCompleted.map((s) => [s, "CANCELLED"])),
  partner_refund: { EXTERNALLY_PAID: "REFUNDED", MANUAL_REVIEW: "REFUNDED" },
  dispute_open: { PAID: "MANUAL_REVIEW", MANUAL_REVIEW: "MANUAL_REVIEW", TRANSFER_IN_PROGRESS: "MANUAL_REVIEW" },
  dispute_won: { MANUAL_REVIEW: "paid" },
  dispute_lost: { PAID: "REFUNDED", MANUAL_REVIEW: "REFUNDED", TRANSFER_IN_PROGRESS: "REFUNDED", TRANSFER_COMPLETED: "REFUNDED" },
  refund_failed: { REFUNDED: "MANUAL_REVIEW" },
};

const eventOf: Record<OrderAction, string> = {
  clear_review: "order.manual_review_cleared",
  start_transfer: "order.transfer_started",
  complete_transfer: "order.transfer_completed",
  settle: "order.settled",
  refund: "order.refunded",
  partner_refund: "order.refunded",
  cancel: "order.refunded",
  dispute_open: "order.disputed",
  dispute_won: "order.dispute_won",
  dispute_lost: "order.refunded",
  refund_failed: "order.refund_failed",
};

function expectedMove(channel: Channel, from: OrderStatus, action: OrderAction): OrderStatus | null {
  const to = legal[action][from];
  if (!to) return null;
  return to === "paid" ? (channel === "mor" ? "EXTERNALLY_PAID" : "PAID") : to;
}

const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join("");
const tag = `os${letters(8)}`;
let counter = 0;
let partnerId: string;
const admin = { type: "admin" as const, id: "order-states-test" };

/** An order in `status` on its own sold listing, with its first timeline entry. */
async function makeOrder(status: OrderStatus, channel: Channel): Promise<OrderRow> {
  const db = getDb();
  const label = `${tag}${++counter}`;
  const [listing] = await db
    .insert(domains)
    .values({ id: newId("domain"), environment: "sandbox", name: `${label}.com`, label, tld: "com", status: "sold", priceCents: 5_000, tokens: label })
    .returning();
  const [order] = await db
    .insert(orders)
    .values({
      id: newId("order", clock.nowMs()),
      partnerId,
      environment: "sandbox",
      domainId: listing!.id,
      domain: listing!.name,
      status,
      channel,
      salePriceCents: 5_000,
      commissionBps: 1000,
      commissionCents: 500,
      buyerEmail: "buyer@example.com",
    })
    .returning();
  await db.insert(orderTimeline).values({ orderId: order!.id, status, note: "fixture" });
  return order!;
}

async function history(orderId: string) {
  const db = getDb();
  const timeline = await db.select().from(orderTimeline).where(eq(orderTimeline.orderId, orderId)).orderBy(asc(orderTimeline.id));
  const evts = await db
    .select()
    .from(events)
    .where(and(eq(events.partnerId, partnerId), sql`${events.data} -> 'order' ->> 'public_id' = ${orderId}`))
    .orderBy(asc(events.createdAt), asc(events.id));
  const audits = await db.select().from(auditLog).where(eq(auditLog.targetId, orderId)).orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  const [current] = await db.select().from(orders).where(eq(orders.id, orderId));
  const [listing] = await db.select().from(domains).where(eq(domains.id, current!.domainId));
  return { timeline, events: evts, audits, order: current!, listingStatus: listing!.status };
}

/** The PostgreSQL transaction id that wrote a row's current version. */
async function xminOf(table: string, column: string, value: string | number): Promise<string> {
  const [row] = await getDb().execute<{ xmin: string }>(sql`select xmin::text as xmin from ${sql.identifier(table)} where ${sql.identifier(column)} = ${value}`);
  return row!.xmin;
}

before(async () => {
  partnerId = (await createTestPartner()).partnerId;
});
after(async () => {
  clock.reset();
  await closeDb();
});

describe("order state machine: every action from every status", () => {
  const cases: { status: OrderStatus; channel: Channel; action: OrderAction }[] = [];
  for (const status of orderStatuses) {
    for (const action of actions) cases.push({ status, channel: status === "PAID" ? "checkout" : "mor", action });
  }
  cases.push({ status: "MANUAL_REVIEW", channel: "checkout", action: "clear_review" });

  for (const { status, channel, action } of cases) {
    const to = expectedMove(channel, status, action);
    it(`${action} from ${status} (${channel}) -> ${to ?? "409 conflict"}`, async () => {
      const order = await makeOrder(status, channel);
      const before = await history(order.id);
      if (!to) {
        await assert.rejects(transitionOrder(getDb(), { orderId: order.id, action, actor: admin }), (error: unknown) => {
          assert.ok(error instanceof AppError);
          assert.equal(error.code, "conflict");
          assert.match(error.message, new RegExp(`in status ${status}`));
          return true;
        });
        const afterwards = await history(order.id);
        assert.equal(afterwards.order.status, status);
        assert.equal(afterwards.order.updatedAt.getTime(), before.order.updatedAt.getTime());
        assert.equal(afterwards.timeline.length, 1);
        assert.equal(afterwards.events.length, 0);
        assert.equal(afterwards.audits.length, 0);
        assert.equal(afterwards.listingStatus, "sold");
        return;
      }

      const updated = await transitionOrder(getDb(), { orderId: order.id, action, actor: admin, note: `by ${action}` });
      assert.equal(updated.status, to);
      const afterwards = await history(order.id);
      assert.equal(afterwards.order.status, to);
      assert.deepEqual(afterwards.timeline.map((t) => [t.status, t.note]), [
        [status, "fixture"],
        [to, `by ${action}`],
      ]);
      assert.equal(afterwards.events.length, 1);
      const event = afterwards.events[0]!;
      assert.equal(event.type, eventOf[action]);
      assert.deepEqual(event.data, { order: serializeOrderSummary(afterwards.order) });
      assert.equal(afterwards.audits.length, 1);
      assert.equal(afterwards.audits[0]?.action, `order.${action}`);
      assert.deepEqual(afterwards.audits[0]?.data, { from: status, to, note: `by ${action}` });
      assert.equal(afterwards.listingStatus, to === "REFUNDED" || to === "CANCELLED" ? "listed" : "sold");
      if (to === "TRANSFER_COMPLETED") assert.ok(afterwards.order.transferCompletedAt);

      // One transaction wrote the status, the timeline entry, the event and the audit row.
      const at = afterwards.order.updatedAt.getTime();
      assert.deepEqual([afterwards.timeline[1]!.at, afterwards.audits[0]!.createdAt].map((d) => d.getTime()), [at, at]);
      const xmin = await xminOf("orders", "id", order.id);
      assert.equal(await xminOf("order_timeline", "id", afterwards.timeline[1]!.id), xmin);
      assert.equal(await xminOf("audit_log", "id", afterwards.audits[0]!.id), xmin);
      // The sequencer later stamps `seq` on the event (a new row version), so compare while it is unsequenced.
      const [unsequenced] = await getDb().execute<{ xmin: string }>(sql`select xmin::text as xmin from events where id = ${event.id} and seq is null`);
      if (unsequenced) assert.equal(unsequenced.xmin, xmin, "event written with the move");
    });
  }

  it("a move inside a transaction that rolls back leaves nothing behind", async () => {
    const order = await makeOrder("EXTERNALLY_PAID", "mor");
    await assert.rejects(
      getDb().transaction(async (tx) => {
        await transitionOrder(tx, { orderId: order.id, action: "refund", actor: admin });
        throw new Error("caller fails after the move");
      }),
      /caller fails/,
    );
    const afterwards = await history(order.id);
    assert.equal(afterwards.order.status, "EXTERNALLY_PAID");
    assert.equal(afterwards.timeline.length, 1);
    assert.equal(afterwards.events.length, 0);
    assert.equal(afterwards.audits.length, 0);
    assert.equal(afterwards.listingStatus, "sold");
  });

  it("a hosted-checkout sale whose payment the marketplace holds is refunded, never cancelled (cancel would keep the buyer's money)", async () => {
    const order = await makeOrder("PAID", "checkout");
    await getDb().insert(payments).values({
      id: newId("payment"), orderId: order.id, environment: "sandbox", provider: "sandbox", providerRef: `ch_${order.id}`,
      idempotencyKey: `test:${order.id}`, amountCents: 5_000, status: "succeeded",
    });
    assert.deepEqual((await getOrderForStaff(getDb(), order.id)).actions, ["start_transfer", "refund"], "the console offers refund, not cancel");
    const before = await history(order.id);
    await assert.rejects(transitionOrder(getDb(), { orderId: order.id, action: "cancel", actor: admin }), (error: unknown) =>
      error instanceof AppError && error.code === "conflict" && /refund the order instead/.test(error.message));
    const after = await history(order.id);
    assert.equal(after.order.status, "PAID");
    assert.equal(after.timeline.length, before.timeline.length, "nothing written");
    assert.equal(after.events.length, before.events.length);
    // Without a collected payment (a partner-collected sale, or one already refunded) cancel stays a move.
    await getDb().update(payments).set({ status: "refunded" }).where(eq(payments.orderId, order.id));
    assert.equal((await transitionOrder(getDb(), { orderId: order.id, action: "cancel", actor: admin })).status, "CANCELLED");
  });

  it("an owner that is not the order's partner or environment sees not_found", async () => {
    const order = await makeOrder("EXTERNALLY_PAID", "mor");
    for (const owner of [
      { partnerId: "ptn_someoneelse", environment: "sandbox" as const },
      { partnerId, environment: "live" as const },
    ]) {
      await assert.rejects(transitionOrder(getDb(), { orderId: order.id, action: "partner_refund", actor: admin, owner }), (e: unknown) => {
        assert.ok(e instanceof AppError);
        assert.equal(e.code, "not_found");
        return true;
      });
    }
    assert.equal((await history(order.id)).order.status, "EXTERNALLY_PAID");
  });
});

describe("order state machine: random action sequences (property)", () => {
  const start = fc.constantFrom<[Channel, OrderStatus]>(["mor", "EXTERNALLY_PAID"], ["mor", "MANUAL_REVIEW"], ["checkout", "PAID"], ["checkout", "MANUAL_REVIEW"]);
  // Staff and partner moves. The processor's (disputes, a failed refund) follow the bank, not these
  // rules: a lost dispute may undo a completed transfer, a failed refund reopens a refunded order;
  // the table above checks them move by move.
  const processorMoves: OrderAction[] = ["dispute_open", "dispute_won", "dispute_lost", "refund_failed"];
  const sequence = fc.array(fc.constantFrom(...actions.filter((a) => !processorMoves.includes(a))), { minLength: 1, maxLength: 10 });

  it("never reaches an illegal state; refunds only before TRANSFER_COMPLETED; one timeline entry and one event per move", async () => {
    await fc.assert(
      fc.asyncProperty(start, sequence, async ([channel, initial], steps) => {
        const order = await makeOrder(initial, channel);
        let model: OrderStatus = initial;
        const trajectory: OrderStatus[] = [initial];
        const emitted: string[] = [];
        for (const action of steps) {
          const prior: OrderStatus = model;
          const expected = expectedMove(channel, prior, action);
          let moved: OrderStatus | null = null;
          clock.advance(1); // distinct timestamps, so history reads back in move order
          try {
            moved = (await transitionOrder(getDb(), { orderId: order.id, action, actor: admin })).status;
          } catch (error) {
            if (!(error instanceof AppError) || error.code !== "conflict") throw error;
          }
          assert.equal(moved, expected, `${action} from ${prior}`);
          if (moved) {
            assert.ok((orderStatuses as readonly string[]).includes(moved));
            if (moved === "REFUNDED" || moved === "CANCELLED") {
              assert.ok(beforeCompleted.includes(prior), `refunded from ${prior}`);
              if (action === "partner_refund") assert.ok(prior === "EXTERNALLY_PAID" || prior === "MANUAL_REVIEW");
            }
            assert.ok(!terminal.includes(prior), `left terminal state ${prior}`);
            model = moved;
            trajectory.push(moved);
            emitted.push(eventOf[action]);
          }
        }
        const afterwards = await history(order.id);
        assert.equal(afterwards.order.status, model);
        assert.deepEqual(afterwards.timeline.map((t) => t.status), trajectory, "exactly one timeline entry per move");
        assert.deepEqual(afterwards.events.map((e) => e.type), emitted, "exactly one event of the right type per move");
        assert.equal(afterwards.audits.length, emitted.length);
        assert.equal(afterwards.listingStatus, model === "REFUNDED" || model === "CANCELLED" ? "listed" : "sold");
      }),
      { numRuns: 40 },
    );
  });
});

describe("operations CLI order:*", () => {
  const admin = (...args: string[]) => runAdmin(...args, "--json");

  it("moves an order and prints it with its timeline; an illegal move exits 1 with conflict", async () => {
    const order = await makeOrder("MANUAL_REVIEW", "mor");
    const cleared = await admin("order:clear-review", order.id);
    assert.equal(cleared.code, 0, cleared.stderr);
    const printed = JSON.parse(cleared.stdout) as { public_id: string; status: string; timeline: { status: string }[] };
    assert.equal(printed.public_id, order.id);
    assert.equal(printed.status, "EXTERNALLY_PAID");
    assert.deepEqual(printed.timeline.map((t) => t.status), ["MANUAL_REVIEW", "EXTERNALLY_PAID"]);

    const illegal = await admin("order:complete-transfer", order.id);
    assert.equal(illegal.code, 1);
    assert.equal(illegal.stdout, "");
    assert.equal((JSON.parse(illegal.stderr) as { error: { code: string } }).error.code, "conflict");

    const refunded = await admin("order:refund", order.id, "--reason", "fraud");
    assert.equal(refunded.code, 0, refunded.stderr);
    const body = JSON.parse(refunded.stdout) as { status: string; timeline: { note: string | null }[] };
    assert.equal(body.status, "REFUNDED");
    assert.equal(body.timeline.at(-1)?.note, "refunded: fraud");
    assert.equal((await history(order.id)).listingStatus, "listed");

    const missing = await admin("order:cancel", "ord_0000000000000000000000");
    assert.equal(missing.code, 1);
    assert.equal((JSON.parse(missing.stderr) as { error: { code: string } }).error.code, "not_found");
  });
});
