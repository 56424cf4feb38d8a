import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { closeDb } from "@/db/client";
import { flushRequestLog } from "@/server/services/request-log";
import { runConcurrency } from "@/reliability/concurrency";
import { formatReport, missed } from "@/reliability/lib/figures";
import { inProcess, startGateServers } from "@/reliability/lib/transport";

// The reduced form of `npm run reliability:concurrency` (reliability/README.md):
// the same harness with a few keys, in this process and over two server processes.

// The request log is written by a timer: flush it before the pool closes, or the timer reopens one.
after(async () => {
  await flushRequestLog();
  await closeDb();
});

describe("reliability: concurrent identical and conflicting POST /orders", () => {
  it("in-process: one order per key, byte-identical replays, conflicts refused, no 5xx", async () => {
    const report = await runConcurrency({ targets: [inProcess], keys: 4, perKey: 40, parallelKeys: 4 });
    assert.deepEqual(missed(report), [], formatReport(report));
  });

  it("spread over two server processes on one database: the same", async () => {
    const servers = await startGateServers(2);
    try {
      const report = await runConcurrency({ targets: servers.targets, keys: 3, perKey: 40, parallelKeys: 3 });
      assert.deepEqual(missed(report), [], formatReport(report));
    } finally {
      await servers.stop();
    }
  });
});
