import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { sql } from "drizzle-orm";
import { closeDb, createPool, getDb } from "@/db/client";
import { executePrepared } from "@/db/compiled";
import { resolveDatabaseUrl } from "@/db/embedded";

// Transactions under a saturated pool (db/safe-begin.ts): with every connection
// busy, queries pipeline onto busy connections, and postgres.js 3.4.9 could send
// a BEGIN there without reserving the connection (UNSAFE_TRANSACTION, and an open
// transaction handed to other queries). The pipeline is shortened to 2 so the
// boundary is hit at once, as the reliability harness hit it at the default 100.

after(closeDb);

/** Drizzle queries run when awaited; this sends one now (in the next tick, as postgres.js does). */
const start = <T>(query: PromiseLike<T>): Promise<T> => Promise.resolve(query);

describe("transactions on a saturated pool", () => {
  it("a BEGIN that fills a busy connection's pipeline still reserves its connection (no UNSAFE_TRANSACTION)", async () => {
    const pool = createPool(resolveDatabaseUrl(), 2, { maxPipeline: 2 });
    try {
      await Promise.all([1, 2].map(() => pool.sql`select 1`));
      const failures: string[] = [];
      for (let round = 0; round < 10; round++) {
        // Both connections full (two queries each), then the queue: plain, plain, BEGIN, three times.
        const busy = Array.from({ length: 4 }, () => pool.sql`select pg_sleep(0.05)`);
        const work = Array.from({ length: 9 }, (_, j) =>
          (j % 3 === 2 ? pool.sql.begin((tx) => tx.unsafe("select 1")) : pool.sql`select 1`).catch((error: Error) => failures.push(error.message)),
        );
        await Promise.all([...busy, ...work]);
      }
      assert.deepEqual(failures, []);
    } finally {
      await pool.sql.end({ timeout: 5 });
    }
  });

  it("through Drizzle: commit, roll back and savepoints as asked, and no connection left in a transaction", async () => {
    const pool = createPool(resolveDatabaseUrl(), 2, { maxPipeline: 2 });
    const table = `tx_probe_${process.pid}`;
    await getDb().execute(sql.raw(`create table if not exists ${table} (id int primary key)`));
    try {
      let id = 0;
      for (let round = 0; round < 10; round++) {
        const busy = Array.from({ length: 4 }, () => start(pool.db.execute(sql`select pg_sleep(0.05)`)));
        // Two plain queries, then a transaction, three times over: the order the queue is drained in.
        const work = Array.from({ length: 9 }, (_, j) => {
          if (j % 3 !== 2) return start(pool.db.execute(sql`select 1`)).then(() => null);
          const mine = ++id;
          return pool.db
            .transaction(async (tx) => {
              await tx.execute(sql.raw(`insert into ${table} values (${mine})`));
              await tx
                .transaction(async (inner) => {
                  await inner.execute(sql.raw(`insert into ${table} values (${mine + 100_000})`));
                  throw new Error("roll back the savepoint only");
                })
                .catch(() => {});
              if (j === 8) throw new Error("roll back this one");
            })
            .then(
              () => ({ committed: true, error: "" }),
              (error: Error) => ({ committed: false, error: error.message }),
            );
        });
        await Promise.all(busy);
        const outcomes = (await Promise.all(work)).filter((outcome) => outcome !== null);
        for (const outcome of outcomes) if (!outcome.committed) assert.equal(outcome.error, "roll back this one");
      }
      const rows = await getDb().execute<{ n: number; inner: number }>(
        sql.raw(`select count(*) filter (where id < 100000)::int as n, count(*) filter (where id >= 100000)::int as inner from ${table}`),
      );
      assert.deepEqual(rows[0], { n: 20, inner: 0 }, "2 of 3 committed per round; every savepoint rolled back");
      const open = await pool.db.execute<{ n: number }>(sql`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and state like 'idle in transaction%' and pid <> pg_backend_pid()`);
      assert.equal(open[0]?.n, 0);
    } finally {
      await pool.sql.end({ timeout: 5 });
      await getDb().execute(sql.raw(`drop table if exists ${table}`));
    }
  });
});

describe("prepared statements (db/compiled.ts executePrepared)", () => {
  it("a statement sent prepared is parsed once per connection and answers as db.execute does; db.execute leaves none", async () => {
    const pool = createPool(resolveDatabaseUrl(), 1);
    const marker = `prepared_probe_${process.pid}`;
    // The marker is in the text (a column alias), so pg_prepared_statements can be searched for it.
    const probe = (n: number) => sql`select ${n}::int + 1 as next, ${marker}::text as ${sql.raw(marker)}`;
    const count = async () => {
      const [row] = await pool.db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_prepared_statements where statement like ${`%${marker}%`} and statement not like '%pg_prepared_statements%'`,
      );
      return row!.n;
    };
    try {
      assert.deepEqual([...(await pool.db.execute(probe(1)))], [{ next: 2, [marker]: marker }]);
      assert.equal(await count(), 0, "db.execute sends an unnamed statement");
      for (let n = 1; n <= 3; n++) assert.deepEqual([...(await executePrepared(pool.db, probe(n)))], [{ next: n + 1, [marker]: marker }]);
      assert.equal(await count(), 1, "three calls, one prepared statement on the connection");
      // Inside a transaction (a reserved connection, db/safe-begin.ts) it is the same connection's statement.
      await pool.db.transaction(async (tx) => assert.deepEqual([...(await executePrepared(tx, probe(9)))], [{ next: 10, [marker]: marker }]));
      assert.equal(await count(), 1);
    } finally {
      await pool.sql.end({ timeout: 5 });
    }
  });
});
