import type postgres from "postgres";

// postgres.js 3.4.9 (the latest release) can send a transaction's BEGIN without
// reserving its connection: when BEGIN is the query that fills a busy
// connection's pipeline (max_pipeline, default 100), the reservation hook is
// skipped (porsager/postgres#823, #1189; fixes #1207/#1218 unmerged). The
// transaction then fails with UNSAFE_TRANSACTION (a 500), and the server-side
// transaction stays open on a connection the pool hands to other queries. The
// reliability concurrency harness hit it within seconds: 126 of 30,000 POST
// /orders were 500s.
//
// Workaround until a fixed release: a transaction first takes a connection with
// sql.reserve() (which moves it out of the pool before anything is sent), then
// sends BEGIN, its statements and COMMIT or ROLLBACK on it, with savepoints for
// nested transactions, exactly as sql.begin() would. Drizzle uses only
// unsafe(), begin(), savepoint() and options of the client it is given.

type Client = Pick<postgres.Sql, "unsafe" | "options">;
type Scope = Client & { savepoint<T>(fn: (scope: Scope) => Promise<T>): Promise<T> };

/** `sql` with begin() replaced by the reserve-first version; everything else is the pool itself. */
export function withSafeBegin(sql: postgres.Sql): postgres.Sql {
  const begin = async <T>(optionsOrFn: string | ((scope: Scope) => Promise<T>), maybeFn?: (scope: Scope) => Promise<T>): Promise<T> => {
    const fn = typeof optionsOrFn === "function" ? optionsOrFn : maybeFn!;
    const options = typeof optionsOrFn === "string" ? optionsOrFn.replace(/[^a-z ]/gi, "") : "";
    const reserved = await sql.reserve();
    try {
      await reserved.unsafe(`begin ${options}`);
      let result: T;
      try {
        result = await fn(scopeOf(reserved));
      } catch (error) {
        await reserved.unsafe("rollback").catch(() => {});
        throw error;
      }
      await reserved.unsafe("commit");
      return result;
    } finally {
      reserved.release();
    }
  };
  return new Proxy(sql, {
    get: (target, property, receiver) => (property === "begin" ? begin : Reflect.get(target, property, receiver)),
  });
}

function scopeOf(reserved: postgres.ReservedSql): Scope {
  let savepoints = 0;
  const scope: Scope = {
    unsafe: reserved.unsafe.bind(reserved) as postgres.Sql["unsafe"],
    options: reserved.options,
    async savepoint<T>(fn: (inner: Scope) => Promise<T>): Promise<T> {
      const name = `s${savepoints++}`;
      await reserved.unsafe(`savepoint ${name}`);
      let result: T;
      try {
        result = await fn(scope);
      } catch (error) {
        await reserved.unsafe(`rollback to savepoint ${name}`);
        throw error;
      }
      await reserved.unsafe(`release savepoint ${name}`);
      return result;
    },
  };
  return scope;
}
