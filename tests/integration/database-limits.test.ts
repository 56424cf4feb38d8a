import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { sql } from "drizzle-orm";
import { closeDb, createPool, getDb } from "@/db/client";
import { resolveDatabaseUrl } from "@/db/embedded";
import { advisoryLocks } from "@/db/locks";
import { listEvents, recordEvent } from "@/server/services/events";
import { SETTLEMENT_STATEMENT_TIMEOUT_MS } from "@/server/services/settlements";
import { createTestPartner } from "../helpers/partner";

// The pool bounds every statement and idle transaction; a settlement run raises
// its own bound; GET /events of one partner never queues behind another's lock.

after(closeDb);

describe("statement and transaction timeouts", () => {
  it("a statement past the pool's timeout is cancelled with a clear error", async () => {
    const pool = createPool(resolveDatabaseUrl(), 1, { statementTimeoutMs: 200 });
    try {
      await assert.rejects(pool.db.execute(sql`select pg_sleep(1)`), (error: { cause?: { code?: string }; code?: string }) => {
        const code = error.code ?? error.cause?.code;
        assert.equal(code, "57014"); // query_canceled: statement timeout
        return true;
      });
      const [settings] = await pool.db.execute<{ st: string; idle: string }>(
        sql`select current_setting('statement_timeout') as st, current_setting('idle_in_transaction_session_timeout') as idle`,
      );
      assert.equal(settings?.st, "200ms");
      assert.equal(settings?.idle, "30s");
    } finally {
      await pool.sql.end();
    }
  });

  it("a settlement transaction may run longer than a request", async () => {
    const pool = createPool(resolveDatabaseUrl(), 1, { statementTimeoutMs: 200 });
    try {
      await pool.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local statement_timeout = ${SETTLEMENT_STATEMENT_TIMEOUT_MS}`));
        await tx.execute(sql`select pg_sleep(0.4)`);
      });
    } finally {
      await pool.sql.end();
    }
  });

  it("the request pool has both bounds by default", async () => {
    const [settings] = await getDb().execute<{ st: string; idle: string }>(
      sql`select current_setting('statement_timeout') as st, current_setting('idle_in_transaction_session_timeout') as idle`,
    );
    assert.equal(settings?.st, "15s");
    assert.equal(settings?.idle, "30s");
  });
});

describe("GET /events and the sequencer", () => {
  it("a partner with nothing pending reads without waiting for the sequencer's lock", async () => {
    const db = getDb();
    const a = await createTestPartner();
    const b = await createTestPartner();
    await recordEvent(db, { partnerId: a.partnerId, environment: "sandbox", type: "order.paid", data: { n: 1 } });
    await listEvents(db, { partnerId: a.partnerId, environment: "sandbox", limit: 10 }); // sequenced now
    const holder = await db.$client.reserve();
    try {
      // Another partner's writer is mid-sequencing, holding the lock.
      await holder`begin`;
      await holder`select pg_advisory_xact_lock(${advisoryLocks.eventSequencer})`;
      void b;
      const read = listEvents(db, { partnerId: a.partnerId, environment: "sandbox", limit: 10 });
      const timeout = new Promise<"blocked">((resolve) => setTimeout(() => resolve("blocked"), 2000).unref());
      const outcome = await Promise.race([read, timeout]);
      assert.notEqual(outcome, "blocked");
      assert.equal((outcome as Awaited<typeof read>).events.length, 1);
    } finally {
      await holder`rollback`;
      holder.release();
    }
  });
});
