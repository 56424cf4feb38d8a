import type postgres from "postgres";
import { poolStats } from "@/server/observability/pool-stats";
import { together } from "./together";

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
    const state: ScopeState = { lost: undefined };
    const stats = poolStats();
    stats.reserved++;
    try {
      // BEGIN is not awaited before the work: the work's first statements go in the same
      // write and the same round trip (the server runs them in order). A BEGIN that fails
      // on a live connection would leave them outside a transaction, but a plain BEGIN
      // fails only when the session is gone (then so do they) or inside an aborted
      // transaction (then they fail with it); its error is still the one thrown.
      const begun = guard(state, () => reserved.unsafe(`begin ${options}`));
      begun.catch(() => {});
      let result: T;
      try {
        result = await fn(scopeOf(reserved, state));
        await begun;
      } catch (error) {
        const beginError = await begun.then(() => undefined, (failed: unknown) => failed ?? error);
        if (!state.lost) await reserved.unsafe("rollback").catch(() => {});
        throw beginError ?? error;
      }
      if (isEnding(result)) {
        // A failed last statement aborts the transaction, and the server answers the
        // COMMIT sent behind it with a rollback: the statement's error is thrown.
        const [rows] = await together(result.statement, guard(state, () => reserved.unsafe("commit")));
        return result.value(rows) as T;
      }
      await guard(state, () => reserved.unsafe("commit"));
      return result;
    } finally {
      // A lost connection is already back in the pool's closed list (postgres.js's onclose);
      // releasing it would put a dead socket among the open ones.
      if (!state.lost) reserved.release();
      stats.reserved--;
    }
  };
  return new Proxy(sql, {
    get: (target, property, receiver) => (property === "begin" ? begin : Reflect.get(target, property, receiver)),
  });
}

interface ScopeState {
  /** The connection error that ended the transaction's connection, if one did. */
  lost: unknown;
}

/**
 * Errors after which the connection is gone. postgres.js 3.4.9 crashes the process
 * (porsager/postgres#1208) or hangs when a reserved connection whose socket closed
 * is written to again, so after one of these nothing more is sent on it: later
 * statements fail with the same error, and there is no ROLLBACK (the server
 * already ended the transaction with the session). This covers a connection lost
 * under a statement; one that closes while the transaction is idle between two
 * statements still reaches the driver's bug on the next write (the crash harness
 * counts such exits; a driver release with #1209 ends them).
 */
const CONNECTION_LOSS = new Set(["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECTION_ENDED", "ECONNRESET", "EPIPE", "57P01", "57P02", "57P03"]);

async function guard<T>(state: ScopeState, send: () => PromiseLike<T>): Promise<T> {
  if (state.lost) throw state.lost;
  try {
    return await send();
  } catch (error) {
    if (CONNECTION_LOSS.has(String((error as { code?: unknown }).code))) state.lost = error;
    throw error;
  }
}

/** What Drizzle awaits: unsafe(...) or unsafe(...).values(), sent only while the connection lives. */
function guardedUnsafe(reserved: postgres.ReservedSql, state: ScopeState): postgres.Sql["unsafe"] {
  return ((query: string, params?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) => {
    let values = false;
    const pending = {
      values() {
        values = true;
        return pending;
      },
      then<A, B>(onFulfilled?: (rows: unknown) => A, onRejected?: (error: unknown) => B) {
        return guard(state, () => (values ? reserved.unsafe(query, params, options).values() : reserved.unsafe(query, params, options))).then(onFulfilled, onRejected);
      },
    };
    return pending;
  }) as unknown as postgres.Sql["unsafe"];
}

function scopeOf(reserved: postgres.ReservedSql, state: ScopeState): Scope {
  let savepoints = 0;
  const scope: Scope = {
    unsafe: guardedUnsafe(reserved, state),
    options: reserved.options,
    async savepoint<T>(fn: (inner: Scope) => Promise<T>): Promise<T> {
      const name = `s${savepoints++}`;
      await guard(state, () => reserved.unsafe(`savepoint ${name}`));
      let result: T;
      try {
        const outcome = await fn(scope);
        result = isEnding(outcome) ? (outcome.value(await outcome.statement) as T) : outcome;
      } catch (error) {
        if (!state.lost) await reserved.unsafe(`rollback to savepoint ${name}`);
        throw error;
      }
      await guard(state, () => reserved.unsafe(`release savepoint ${name}`));
      return result;
    },
  };
  return scope;
}

// From the global registry: a production build gives each route bundle its own copy of
// this module, and the pool (on globalThis) may be another bundle's.
const ENDING = Symbol.for("pdm.transaction.endsWith");

interface Ending<S, T> {
  [ENDING]: true;
  statement: PromiseLike<S>;
  value: (result: S) => T;
}

/**
 * What a transaction's work returns to send its last statement with the COMMIT, in
 * one round trip instead of two: `statement` is already issued and nothing in the
 * work depends on its answer; `value` makes the transaction's result from it once
 * both are answered. Only as the return value of the function given to
 * `db.transaction` (nested, the savepoint waits for the statement instead).
 */
export function endingWith<S, T>(statement: PromiseLike<S>, value: (result: S) => T): T {
  const ending: Ending<S, T> = { [ENDING]: true, statement, value };
  return ending as unknown as T;
}

function isEnding(result: unknown): result is Ending<unknown, unknown> {
  return typeof result === "object" && result !== null && ENDING in result;
}
