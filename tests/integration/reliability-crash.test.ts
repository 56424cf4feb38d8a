import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { closeDb } from "@/db/client";
import { flushRequestLog } from "@/server/services/request-log";
import { formatReport, missed } from "@/reliability/lib/figures";
import { runCrash } from "@/reliability/crash";

// The reduced form of `npm run reliability:crash` (reliability/README.md): on a
// PostgreSQL cluster of its own, a few SIGKILLs of web and worker processes, a
// cut of every database connection and one crash of PostgreSQL itself; orders
// and hosted-checkout payments; then the settlement must balance.

// The request log is written by a timer: flush it before the pool closes, or the timer reopens one.
after(async () => {
  await flushRequestLog();
  await closeDb();
});

describe("reliability: orders, checkout payments and webhooks through SIGKILLs, lost connections and a PostgreSQL crash", () => {
  it("loses and duplicates nothing, delivers every event, leaves nothing stuck, and the settlement balances", async () => {
    const report = await runCrash({
      orders: 60,
      checkouts: 24,
      clients: 6,
      cycles: 4,
      killEveryMs: 800,
      dbCutEvery: 2,
      dbStopEvery: 3,
      dbPort: process.env.REL_DB_PORT ? Number(process.env.REL_DB_PORT) : undefined,
    });
    assert.deepEqual(missed(report), [], formatReport(report));
  });
});
