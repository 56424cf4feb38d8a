import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq, sql } from "drizzle-orm";
import { closeDb, createPool, getDb } from "@/db/client";
import { resolveDatabaseUrl } from "@/db/embedded";
import { events, type Environment } from "@/db/schema";
import * as eventsRoute from "@/app/api/partner/v1/events/route";
import { recordEvent } from "@/server/services/events";
import type { EventType } from "@/server/webhooks/catalog";
import { addCredential, callRoute, createTestPartner, type TestCredential } from "../helpers/partner";

// GET /events under concurrent writers: transactions record events and commit
// in a scrambled order while a reader pages with after_id; the reader must
// never skip or repeat an event and must end with exactly the committed ones,
// in the order a fresh reader sees. Then the query rules: limit, type filter,
// cursors of other partners, environment isolation.

interface ApiEvent {
  id: string;
  type: string;
  created_at: string;
  partner_id: string;
  data: Record<string, unknown>;
}
interface Page {
  events: ApiEvent[];
  next_cursor: string | null;
  has_more: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Signed GET /events calls for one partner and environment. Reporting routes
 * allow 30 requests a minute per credential, so a busy reader moves to a fresh
 * credential of the same partner every 25 calls.
 */
function reader(partnerId: string, environment: Environment = "sandbox") {
  let credential: TestCredential | undefined;
  let used = 0;
  return async (query: string): Promise<{ status: number; body: Page & { error?: { code: string; details?: { path: string }[] } } }> => {
    if (!credential || used >= 25) {
      credential = await addCredential(partnerId, environment, ["webhook"]);
      used = 0;
    }
    used++;
    const res = await callRoute<Page & { error?: { code: string; details?: { path: string }[] } }>(eventsRoute.GET, {
      url: `/api/partner/v1/events${query}`,
      credential,
    });
    return res;
  };
}

function orderData(n: number) {
  return { order: { public_id: `ord_evt${n}`, domain: `events${n}.com`, status: "EXTERNALLY_PAID", sale_price_cents: n, currency: "USD" } };
}

describe("GET /events", () => {
  let writers: ReturnType<typeof createPool>;
  before(() => {
    writers = createPool(resolveDatabaseUrl(), 30);
  });
  after(async () => {
    await writers.sql.end({ timeout: 5 });
    await closeDb();
  });

  it("returns an event that commits after a later one was read, on the next page", async () => {
    const { partnerId } = await createTestPartner();
    const get = reader(partnerId);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let earlyId = "";
    let recorded: () => void = () => {};
    const earlyRecorded = new Promise<void>((resolve) => (recorded = resolve));
    // Transaction A records first (the smaller id and created_at) but commits last.
    const a = writers.db.transaction(async (tx) => {
      earlyId = (await recordEvent(tx, { partnerId, environment: "sandbox", type: "order.recorded", data: orderData(1) })).id;
      recorded();
      await held;
    });
    await earlyRecorded;
    const late = await recordEvent(getDb(), { partnerId, environment: "sandbox", type: "order.transfer_started", data: orderData(2) });
    assert.ok(earlyId < late.id, "A's event was created first");

    const first = await get("");
    assert.deepEqual(first.body.events.map((e) => e.id), [late.id], "only the committed event is visible");
    assert.equal(first.body.next_cursor, late.id);

    release();
    await a;
    const second = await get(`?after_id=${late.id}`);
    assert.deepEqual(second.body.events.map((e) => e.id), [earlyId], "the late commit comes next, not skipped");
    const again = await get(`?after_id=${earlyId}`);
    assert.deepEqual(again.body.events, []);
    assert.equal(again.body.next_cursor, earlyId, "at the head the cursor stays put");
    assert.equal(again.body.has_more, false);
    const fresh = await get("");
    assert.deepEqual(fresh.body.events.map((e) => e.id), [late.id, earlyId], "every reader sees the same order");
  });

  it("never skips or repeats an event while many writers commit in a scrambled order", async () => {
    const { partnerId } = await createTestPartner();
    const other = await createTestPartner();
    const get = reader(partnerId);
    const committed = new Set<string>();
    const rolledBack = new Set<string>();
    const WRITERS = 80;
    let finished = 0;

    // Each writer opens a transaction, records 1-3 events, holds the
    // transaction open for a random time (in the database or in the client),
    // then commits; every ninth rolls back. Start times are staggered, so
    // commits land in an order unrelated to the order the events were created.
    const writer = async (i: number) => {
      await sleep(Math.floor(Math.random() * 400));
      const ids: string[] = [];
      try {
        await writers.db.transaction(async (tx) => {
          const count = 1 + (i % 3);
          for (let k = 0; k < count; k++) {
            const owner = i % 10 === 0 && k === 0 ? other.partnerId : partnerId; // some noise from another partner
            const row = await recordEvent(tx, { partnerId: owner, environment: "sandbox", type: "order.recorded", data: orderData(i * 10 + k) });
            if (owner === partnerId) ids.push(row.id);
          }
          const hold = Math.floor(Math.random() * 300);
          if (i % 2) await tx.execute(sql`select pg_sleep(${hold / 1000})`);
          else await sleep(hold);
          if (i % 9 === 4) throw new Error("rollback");
        });
        ids.forEach((id) => committed.add(id));
      } catch {
        ids.forEach((id) => rolledBack.add(id));
      } finally {
        finished++;
      }
    };
    const writing = Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(i)));

    const seen: string[] = [];
    let cursor: string | null = null;
    let emptyAfterDone = 0;
    let pages = 0;
    while (emptyAfterDone < 2) {
      const done = finished === WRITERS;
      const res = await get(cursor ? `?after_id=${cursor}&limit=7` : "?limit=7");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      pages++;
      seen.push(...res.body.events.map((e) => e.id));
      assert.ok(res.body.events.every((e) => e.partner_id === partnerId));
      cursor = res.body.next_cursor ?? cursor;
      if (done && res.body.events.length === 0) emptyAfterDone++;
      if (res.body.events.length === 0) await sleep(5);
    }
    await writing;

    assert.equal(new Set(seen).size, seen.length, "no event was returned twice");
    assert.deepEqual([...seen].sort(), [...committed].sort(), "every committed event was returned");
    for (const id of rolledBack) assert.ok(!seen.includes(id), "a rolled-back event never appears");
    assert.ok(rolledBack.size > 0 && committed.size > 100);

    // Commits really were out of order: some events arrived after a later-created one.
    let late = 0;
    seen.reduce((max, id) => (id < max ? (late++, max) : id), "");
    assert.ok(late > 0, "the writers committed out of creation order");

    // A fresh reader, paging in large steps, sees the very same sequence.
    const fresh: string[] = [];
    let next: string | null = null;
    for (;;) {
      const res = await get(next ? `?after_id=${next}&limit=200` : "?limit=200");
      fresh.push(...res.body.events.map((e) => e.id));
      next = res.body.next_cursor;
      if (!res.body.has_more) break;
    }
    assert.deepEqual(fresh, seen);
    assert.ok(pages > committed.size / 7, `the reader paged continuously (${pages} pages)`);
  });

  describe("query rules", () => {
    let partnerId: string;
    let get: ReturnType<typeof reader>;
    const ids: { id: string; type: EventType }[] = [];
    const types: EventType[] = ["order.recorded", "order.transfer_started", "brokerage.case_completed", "order.transfer_completed", "order.settled"];

    before(async () => {
      ({ partnerId } = await createTestPartner());
      get = reader(partnerId);
      for (let i = 0; i < 60; i++) {
        const type = types[i % types.length] as EventType;
        const data = type.startsWith("brokerage") ? { case: { case_id: `bc_${i}`, domain: `case${i}.com` } } : orderData(i);
        const row = await recordEvent(getDb(), { partnerId, environment: "sandbox", type, data });
        ids.push({ id: row.id, type });
      }
    });

    it("pages 50 by default, at most 200, in ascending order, with has_more", async () => {
      const first = await get("");
      assert.equal(first.status, 200);
      assert.equal(first.body.events.length, 50);
      assert.equal(first.body.has_more, true);
      assert.deepEqual(first.body.events.map((e) => e.id), ids.slice(0, 50).map((e) => e.id));
      assert.equal(first.body.next_cursor, ids[49]?.id);
      const rest = await get(`?after_id=${first.body.next_cursor}`);
      assert.deepEqual(rest.body.events.map((e) => e.id), ids.slice(50).map((e) => e.id));
      assert.equal(rest.body.has_more, false);
      assert.equal((await get("?limit=200")).body.events.length, 60);
      for (const bad of ["?limit=201", "?limit=0", "?limit=abc"]) {
        const res = await get(bad);
        assert.equal(res.status, 400, bad);
        assert.equal(res.body.error?.code, "validation_error");
        assert.equal(res.body.error?.details?.[0]?.path, "limit");
      }
    });

    it("filters by family (order.*) and by exact type", async () => {
      const orders = await get("?type=order.*&limit=200");
      assert.deepEqual(orders.body.events.map((e) => e.id), ids.filter((e) => e.type.startsWith("order.")).map((e) => e.id));
      const brokerage = await get("?type=brokerage.*&limit=200");
      assert.deepEqual(brokerage.body.events.map((e) => e.id), ids.filter((e) => e.type === "brokerage.case_completed").map((e) => e.id));
      const exact = await get("?type=order.settled,order.transfer_started&limit=5");
      assert.deepEqual(
        exact.body.events.map((e) => e.id),
        ids.filter((e) => e.type === "order.settled" || e.type === "order.transfer_started").slice(0, 5).map((e) => e.id),
      );
      assert.equal(exact.body.has_more, true);
      const afterFirst = await get(`?type=order.*&after_id=${ids[0]?.id}&limit=3`);
      assert.deepEqual(afterFirst.body.events.map((e) => e.id), ids.slice(1).filter((e) => e.type.startsWith("order.")).slice(0, 3).map((e) => e.id));
      for (const bad of ["?type=order", "?type=order.%25", "?type=*"]) {
        const res = await get(bad);
        assert.equal(res.status, 400, bad);
        assert.match(res.body.error?.details?.[0]?.path ?? "", /^type(\.\d+)?$/);
      }
    });

    it("refuses another partner's event id and an unknown one as after_id", async () => {
      const { partnerId: otherId } = await createTestPartner();
      const foreign = await recordEvent(getDb(), { partnerId: otherId, environment: "sandbox", type: "order.recorded", data: orderData(999) });
      for (const cursor of [foreign.id, "evt_doesnotexist0000000000"]) {
        const res = await get(`?after_id=${cursor}`);
        assert.equal(res.status, 400);
        assert.equal(res.body.error?.code, "validation_error");
        assert.equal(res.body.error?.details?.[0]?.path, "after_id");
      }
    });

    it("keeps sandbox and live histories apart", async () => {
      const live = await recordEvent(getDb(), { partnerId, environment: "live", type: "order.recorded", data: orderData(1000) });
      const liveReader = reader(partnerId, "live");
      const liveEvents = await liveReader("?limit=200");
      assert.deepEqual(liveEvents.body.events.map((e) => e.id), [live.id]);
      const sandbox = await get("?limit=200");
      assert.ok(!sandbox.body.events.some((e) => e.id === live.id));
      const crossed = await get(`?after_id=${live.id}`);
      assert.equal(crossed.status, 400, "a live event id is no cursor for sandbox");
      const [row] = await getDb().select().from(events).where(eq(events.id, live.id));
      assert.ok(row?.seq, "sequenced all the same");
    });

    it("returns each event with id, type, created_at, partner_id and data", async () => {
      const res = await get("?limit=1");
      const [event] = res.body.events;
      assert.ok(event);
      assert.deepEqual(Object.keys(event), ["id", "type", "created_at", "partner_id", "data"]);
      assert.equal(event.partner_id, partnerId);
      assert.match(event.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual(event.data, orderData(0));
    });
  });
});
