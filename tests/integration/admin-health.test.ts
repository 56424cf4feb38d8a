import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { closeDb, getDb, type Transaction } from "@/db/client";
import { advisoryLocks } from "@/db/locks";
import { events, settlements, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import type { SessionUser } from "@/server/auth/session";
import { newId } from "@/server/ids";
import { getAdminHealth } from "@/server/services/admin-health";
import { recordAudit } from "@/server/services/audit";
import { createUser } from "@/server/services/partners";
import { createCaller } from "@/server/trpc/routers/_app";
import { createTestPartner, uniqueSuffix } from "../helpers/partner";

// The health page's figures against rows this test writes. Everything happens
// in one REPEATABLE READ transaction that is rolled back: the figures before and
// after the writes come from one snapshot, so other suites' rows cancel out, and
// the rows are dated in 2001 (queue, failures) or 2100 (settlement) so that the
// time-bounded figures see only this test's rows.

after(closeDb);

const NOW = new Date("2001-01-02T00:00:00Z");
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

class Rollback extends Error {}

async function inRolledBackTransaction(fn: (tx: Transaction) => Promise<void>) {
  await assert.rejects(
    getDb().transaction(async (tx) => {
      await fn(tx);
      throw new Rollback();
    }, { isolationLevel: "repeatable read" }),
    Rollback,
  );
}

async function endpoint(tx: Transaction, partnerId: string, environment: "sandbox" | "live") {
  // Inactive, so no worker of another suite claims these rows meanwhile.
  const [row] = await tx
    .insert(webhookEndpoints)
    .values({ id: newId("webhookEndpoint"), partnerId, environment, url: `https://hooks.example/${environment}`, secretSealed: "unused", active: false, disabledReason: "partner" })
    .returning();
  return row!;
}

async function delivery(
  tx: Transaction,
  endpoint: { id: string; partnerId: string; environment: "sandbox" | "live" },
  status: string,
  nextAttemptAt: Date | null,
  attempts: Array<{ status: number | null; at: Date }> = [],
) {
  const [event] = await tx
    .insert(events)
    .values({ id: newId("event", NOW.getTime()), partnerId: endpoint.partnerId, environment: endpoint.environment, type: "order.paid", data: {}, createdAt: at(-3 * HOUR) })
    .returning();
  const id = newId("webhookDelivery", NOW.getTime());
  await tx.insert(webhookDeliveries).values({ id, eventId: event!.id, endpointId: endpoint.id, status, nextAttemptAt, attemptCount: attempts.length, createdAt: at(-3 * HOUR), updatedAt: at(-60_000) });
  for (const attempt of attempts) {
    await tx.insert(webhookAttempts).values({ deliveryId: id, url: "https://hooks.example", responseStatus: attempt.status, error: attempt.status ? null : "timeout", attemptedAt: attempt.at });
  }
}

describe("admin health", () => {
  it("measures queue depth and lag, failure rates per endpoint, leases and locks, the last settlement run and the database size", async () => {
    const { partnerId } = await createTestPartner();
    const lockHolder = await getDb().$client.reserve();
    try {
      await inRolledBackTransaction(async (tx) => {
        const before = await getAdminHealth(tx, NOW);
        const failing = await endpoint(tx, partnerId, "sandbox");
        const flaky = await endpoint(tx, partnerId, "live");

        // Queue: due 2 h ago (the lag), due in an hour, a live lease, a lease that ran out 10 s ago (due again).
        await delivery(tx, failing, "pending", at(-2 * HOUR), [{ status: 500, at: at(-2 * HOUR) }]);
        await delivery(tx, failing, "pending", at(HOUR));
        await delivery(tx, flaky, "delivering", at(30_000));
        await delivery(tx, failing, "delivering", at(-10_000), [{ status: null, at: at(-20 * HOUR) }]);
        // Failures in the 24 h: failing 3 of 4 (one above plus these), flaky 1 of 2; one older than 24 h not counted.
        await delivery(tx, failing, "failed", null, [
          { status: 404, at: at(-HOUR) },
          { status: 200, at: at(-HOUR) },
        ]);
        await delivery(tx, flaky, "succeeded", null, [
          { status: 503, at: at(-5 * HOUR) },
          { status: 204, at: at(-4 * HOUR) },
          { status: 500, at: at(-25 * HOUR) },
        ]);
        // The last settlement run (as the console's run writes it) and its statement.
        const runAt = new Date("2100-01-01T00:00:00Z");
        await recordAudit(
          tx,
          { type: "cli" },
          { action: "settlement.run", targetType: "settlement_run", targetId: runAt.toISOString(), data: { reason: "Month end", as_of: "2099-12-01", statements: 1 } },
          runAt,
        );
        await tx.insert(settlements).values({
          id: newId("settlement", runAt.getTime()),
          partnerId,
          environment: "sandbox",
          paymentModel: "mor",
          periodStart: "2099-11-01",
          periodEnd: "2099-12-01",
          grossSoldCents: 1000,
          commissionRetainedCents: 100,
          orderCount: 1,
          createdAt: runAt,
        });
        // The prune chore's session lock, held by another connection.
        const [{ pid }] = (await lockHolder`select pg_backend_pid() as pid, pg_advisory_lock(${advisoryLocks.prune})`) as unknown as [{ pid: number }];

        const health = await getAdminHealth(tx, NOW);
        assert.equal(health.generatedAt, NOW.toISOString());
        assert.deepEqual(
          {
            pending: health.queue.pending - before.queue.pending,
            inFlight: health.queue.inFlight - before.queue.inFlight,
            due: health.queue.due,
            lag: health.queue.lagSeconds,
            oldestDueAt: health.queue.oldestDueAt,
          },
          { pending: 2, inFlight: 1, due: 2, lag: 7200, oldestDueAt: at(-2 * HOUR).toISOString() },
        );

        assert.equal(health.failures.since, at(-24 * HOUR).toISOString());
        assert.deepEqual({ attempts: health.failures.attempts, failed: health.failures.failed, rate: health.failures.rate }, { attempts: 6, failed: 4, rate: 4 / 6 });
        assert.deepEqual(
          health.failures.topFailing.map((e) => [e.endpointId, e.partnerId, e.environment, e.failed, e.attempts, e.rate]),
          [
            [failing.id, partnerId, "sandbox", 3, 4, 0.75],
            [flaky.id, partnerId, "live", 1, 2, 0.5],
          ],
        );
        assert.equal(health.failures.topFailing[0]?.lastFailureAt, at(-HOUR).toISOString());

        const leases = new Map(health.worker.endpoints.map((e) => [e.endpointId, e]));
        assert.deepEqual(leases.get(flaky.id), {
          endpointId: flaky.id,
          partnerId,
          partnerName: leases.get(flaky.id)?.partnerName,
          environment: "live",
          deliveries: 1,
          claimedAt: at(-60_000).toISOString(),
          expiresAt: at(30_000).toISOString(),
          expired: false,
        });
        assert.equal(leases.get(failing.id)?.expired, true);
        const prune = health.worker.locks.find((lock) => lock.pid === pid);
        assert.ok(prune, JSON.stringify(health.worker.locks));
        assert.deepEqual([prune.name, prune.granted, prune.key], ["prune", true, String(advisoryLocks.prune)]);
        assert.match(prune.holder ?? "", /^partner-marketplace/);

        assert.deepEqual(health.settlement.lastRun, { auditId: health.settlement.lastRun?.auditId, at: runAt.toISOString(), actor: "cli", statements: 1, asOf: "2099-12-01", reason: "Month end" });
        assert.equal(health.settlement.statementsTotal - before.settlement.statementsTotal, 1);
        assert.equal(health.settlement.lastStatementAt, runAt.toISOString());
        assert.equal(health.settlement.statementsInLastDayOfRuns, 1);

        assert.ok(health.database.bytes > 1_000_000);
        const sizes = health.database.largestTables.map((t) => t.bytes);
        assert.ok(sizes.length >= 3);
        assert.deepEqual(sizes, [...sizes].sort((a, b) => b - a));
        assert.ok(health.database.largestTables.every((t) => /^[a-z_]+$/.test(t.name)));
      });
    } finally {
      await lockHolder`select pg_advisory_unlock_all()`;
      lockHolder.release();
    }
  });

  it("admin.health.get answers staff with the same figures at the service clock's now", async () => {
    const created = await createUser(getDb(), { email: `staff-${uniqueSuffix()}@ops.example`, password: "staff-password-1", role: "admin" });
    const user: SessionUser = { id: created.userId, email: created.email, name: null, role: "admin", partnerId: null, partnerRole: null };
    const health = await createCaller({ db: getDb(), user, environment: "sandbox" }).admin.health.get();
    assert.ok(Math.abs(Date.parse(health.generatedAt) - Date.now()) < 60_000);
    assert.ok(health.queue.pending >= 0 && health.queue.lagSeconds >= 0);
    assert.ok(health.database.bytes > 0);
  });
});
