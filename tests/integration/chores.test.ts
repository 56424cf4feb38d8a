import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { and, eq, like } from "drizzle-orm";
import { closeDb, createPool, getDb } from "@/db/client";
import { resolveDatabaseUrl } from "@/db/embedded";
import { choreRuns, orders, settlements } from "@/db/schema";
import { clock } from "@/server/clock";
import { runChoreOnce } from "@/server/services/chore-runs";
import { startChores } from "@/server/services/chores";
import { createFixtureOrder } from "../helpers/orders";
import { createTestPartner, uniqueSuffix } from "../helpers/partner";

// Two workers on one database: two pools (two processes' worth of connections),
// each with its own chore scheduler, racing for the same slots.

const YEAR = 2001 + randomInt(20);
const workers = [createPool(resolveDatabaseUrl(), 3), createPool(resolveDatabaseUrl(), 3)];
const [a, b] = workers.map((w) => w.db) as [ReturnType<typeof getDb>, ReturnType<typeof getDb>];

describe("scheduled chores across workers", () => {
  before(() => clock.reset());
  after(async () => {
    clock.reset();
    await Promise.all(workers.map((w) => w.sql.end({ timeout: 5 })));
    await closeDb();
  });

  it("the monthly settlement runs once when two workers look at the same moment", async () => {
    const { partnerId } = await createTestPartner();
    const order = await createFixtureOrder({ partnerId, priceCents: 12_300, completedAt: new Date(Date.UTC(YEAR, 1, 10)) });
    const slot = `${YEAR}-03`;
    await getDb().delete(choreRuns).where(and(eq(choreRuns.chore, "settlement"), eq(choreRuns.slot, slot)));
    clock.freeze(new Date(Date.UTC(YEAR, 2, 1, 0, 0, 20)));

    const logs: string[] = [];
    const schedulers = [a, b].map((db, i) =>
      startChores(db, { timer: false, only: ["settlement"], holder: `worker-${i}`, log: (m) => logs.push(`worker-${i} ${m}`) }),
    );
    // Each worker looks three times (a tick every 15 s over the slot's first minute), all at once.
    await Promise.all(schedulers.flatMap((s) => [s.tick(), s.tick(), s.tick()]));
    await Promise.all(schedulers.map((s) => s.stop()));

    const runs = await getDb().select().from(choreRuns).where(and(eq(choreRuns.chore, "settlement"), eq(choreRuns.slot, slot)));
    assert.equal(runs.length, 1);
    assert.ok(runs[0]!.finishedAt, "the run finished");
    assert.match(runs[0]!.outcome ?? "", /^closed \d+ statement/);
    assert.equal(logs.filter((line) => line.includes(`settlement (${slot}): closed`)).length, 1, logs.join("\n"));
    const [settled] = await getDb().select().from(orders).where(eq(orders.id, order.id));
    assert.equal(settled?.status, "SETTLED");
    const statements = await getDb().select().from(settlements).where(eq(settlements.partnerId, partnerId));
    assert.equal(statements.length, 1);
    assert.equal(statements[0]!.periodStart, `${YEAR}-02-01`);
    clock.reset();
  });

  it("a slot runs once however many callers race; a new slot runs again", async () => {
    const chore = `test-${uniqueSuffix()}`;
    let runs = 0;
    const work = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return "done";
    };
    const race = (slot: string) =>
      Promise.all([a, b, a, b, a, b].map((db, i) => runChoreOnce(db, { chore, slot, leaseMs: 60_000, holder: `w${i}` }, work)));
    const first = await race("2030-01");
    assert.equal(runs, 1);
    assert.equal(first.filter((o) => o.ran).length, 1);
    await race("2030-01");
    assert.equal(runs, 1, "a finished slot is not run again");
    await race("2030-02");
    assert.equal(runs, 2);
    await getDb().delete(choreRuns).where(like(choreRuns.chore, chore));
  });

  it("a failed run frees its slot for the next look; a dead runner's slot is taken over when its lease ends", async () => {
    const chore = `test-${uniqueSuffix()}`;
    const slot = { chore, slot: "2030-01", leaseMs: 60_000 };
    await assert.rejects(
      runChoreOnce(a, { ...slot, holder: "w-a" }, async () => {
        throw new Error("processor down");
      }),
      /processor down/,
    );
    const [failed] = await getDb().select().from(choreRuns).where(eq(choreRuns.chore, chore));
    assert.equal(failed?.outcome, "failed: processor down");
    assert.deepEqual(await runChoreOnce(b, { ...slot, holder: "w-b" }, async () => "recovered"), { ran: true, result: "recovered" });

    // A runner that claimed a slot and died: nobody else runs it until its lease ends.
    const dead = { ...slot, slot: "2030-02" };
    clock.freeze(new Date("2030-02-01T00:00:00Z"));
    await a.insert(choreRuns).values({ chore, slot: dead.slot, holder: "w-dead", startedAt: clock.now(), leaseUntil: new Date(clock.nowMs() + 60_000) });
    assert.deepEqual(await runChoreOnce(b, { ...dead, holder: "w-b" }, async () => "too soon"), { ran: false });
    clock.advance(61_000);
    assert.deepEqual(await runChoreOnce(b, { ...dead, holder: "w-b" }, async () => "taken over"), { ran: true, result: "taken over" });
    const [row] = await getDb().select().from(choreRuns).where(and(eq(choreRuns.chore, chore), eq(choreRuns.slot, dead.slot)));
    assert.equal(row?.holder, "w-b");
    assert.equal(row?.outcome, "taken over");
    clock.reset();
    await getDb().delete(choreRuns).where(eq(choreRuns.chore, chore));
  });
});
