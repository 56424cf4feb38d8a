import assert from "node:assert/strict";
import net from "node:net";
import { after, describe, it } from "node:test";
import { sql } from "drizzle-orm";
import { closeDb, createPool, getDb } from "@/db/client";
import { executePrepared } from "@/db/compiled";
import { resolveDatabaseUrl } from "@/db/embedded";
import { endingWith } from "@/db/safe-begin";
import { together } from "@/db/together";

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

describe("statements sent together (db/together.ts, db/safe-begin.ts)", () => {
  /** Writes to the database's sockets while `fn` runs: each is a round trip, since each is answered before the next. */
  async function writesDuring(fn: () => Promise<unknown>): Promise<number> {
    const port = Number(new URL(resolveDatabaseUrl()).port || 5432);
    const write = net.Socket.prototype.write;
    let writes = 0;
    net.Socket.prototype.write = function (this: net.Socket, ...args: unknown[]) {
      if (this.remotePort === port) writes++;
      return (write as (...a: unknown[]) => boolean).apply(this, args);
    } as typeof write;
    try {
      await fn();
    } finally {
      net.Socket.prototype.write = write;
    }
    return writes;
  }

  const table = `together_probe_${process.pid}`;
  const insert = (id: number) => sql`insert into ${sql.raw(table)} values (${id}) returning id`;
  const ids = async () =>
    (await getDb().execute<{ id: number }>(sql.raw(`select id from ${table} order by id`))).map((row) => row.id);

  it("BEGIN, statements sent together and the last statement with COMMIT: two round trips, all committed", async () => {
    const pool = createPool(resolveDatabaseUrl(), 1);
    await getDb().execute(sql.raw(`create table if not exists ${table} (id int primary key)`));
    await getDb().execute(sql.raw(`truncate ${table}`));
    try {
      const work = (first: number) =>
        pool.db.transaction(async (tx) => {
          const [a, b] = await together(executePrepared<{ id: number }>(tx, insert(first)), executePrepared<{ id: number }>(tx, insert(first + 1)));
          return endingWith(executePrepared<{ id: number }>(tx, insert(first + 2)), (c) => [a[0]!.id, b[0]!.id, c[0]!.id]);
        });
      // The first use prepares each statement on the connection (a describe round trip); then none.
      assert.deepEqual(await work(1), [1, 2, 3]);
      let result: number[] = [];
      const writes = await writesDuring(async () => {
        result = await work(11);
      });
      assert.deepEqual(result, [11, 12, 13]);
      assert.equal(writes, 2, "BEGIN with the first two inserts, then the third with COMMIT");
      assert.deepEqual(await ids(), [1, 2, 3, 11, 12, 13]);
    } finally {
      await pool.sql.end({ timeout: 5 });
    }
  });

  it("the first failure in sending order is thrown, and the transaction's earlier work is rolled back", async () => {
    const pool = createPool(resolveDatabaseUrl(), 1);
    await getDb().execute(sql.raw(`truncate ${table}`));
    try {
      // A duplicate key in the middle: the statement after it fails only because the transaction is aborted.
      const failed = await pool.db
        .transaction(async (tx) => {
          await tx.execute(insert(1));
          await together(tx.execute(insert(2)), tx.execute(insert(1)), tx.execute(insert(3)));
        })
        .catch((error: { cause?: { code?: string }; code?: string }) => error.cause?.code ?? error.code);
      assert.equal(failed, "23505");
      // The last statement sent with COMMIT fails: the server rolls back, its error is thrown.
      const last = await pool.db
        .transaction(async (tx) => {
          await tx.execute(insert(5));
          return endingWith(executePrepared(tx, insert(5)), () => "committed");
        })
        .catch((error: { cause?: { code?: string }; code?: string }) => error.cause?.code ?? error.code);
      assert.equal(last, "23505");
      assert.deepEqual(await ids(), []);
      // Nested (a savepoint), the statement is awaited before the release.
      const nested = await pool.db.transaction(async (tx) =>
        tx.transaction(async (inner) => endingWith(executePrepared<{ id: number }>(inner, insert(7)), (rows) => rows[0]!.id)),
      );
      assert.equal(nested, 7);
      assert.deepEqual(await ids(), [7]);
      const [open] = await pool.db.execute<{ n: number }>(sql`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and state like 'idle in transaction%' and pid <> pg_backend_pid()`);
      assert.equal(open?.n, 0);
    } finally {
      await pool.sql.end({ timeout: 5 });
      await getDb().execute(sql.raw(`drop table if exists ${table}`));
    }
  });
});
