import { is, Param, Placeholder, sql, type Query, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "./client";

// A hot statement built from Drizzle's query builders, compiled to text once and
// then only given its values. Building createOrder's six-part statement through the
// builders cost about 0.9 ms of CPU per order (bench/HOT-PATH.md section 7); filling
// in its 48 values costs a few microseconds.

/** Named groups of values (a row to insert, a where's operands): what a statement is given. */
export type StatementValues = Record<string, Record<string, unknown>>;

/** Each value of each group as a Drizzle placeholder, for the builders. */
export type Placeholders<V extends StatementValues> = { [G in keyof V]: { [F in keyof V[G]]-?: Placeholder } };

/** The client's casing (db/client.ts): column names come out as the builders would write them. */
const dialect = new PgDialect({ casing: "snake_case" });

/**
 * `build` receives the caller's `db` (for its builders; nothing is sent) and a placeholder
 * for every value, and returns the statement, written with the builders as it would be
 * with the values themselves. The text is compiled once per
 * shape: a field left undefined is no placeholder, so an insert writes its column's
 * default as a direct build does. Each call encodes the values as a direct build does
 * (through each column's own encoder: a Date to its timestamp text, jsonb to JSON; null
 * as null) and sends the statement prepared (executePrepared). Group and field names must
 * not contain a dot.
 */
export function compiledStatement<V extends StatementValues, R extends Record<string, unknown>>(
  build: (db: Db, placeholders: Placeholders<V>) => SQL,
): (db: Db, values: V) => Promise<R[]> {
  let fill: ((values: V) => Query) | undefined;
  return (db, values) => sendPrepared<R>(db, (fill ??= compiledQuery<V>((placeholders) => build(db, placeholders)))(values));
}

/**
 * compiledStatement's text and values without sending them: for a statement that travels
 * inside another (GET /availability's listing read goes in the signing gate's statement).
 */
export function compiledQuery<V extends StatementValues>(build: (placeholders: Placeholders<V>) => SQL): (values: V) => Query {
  const shapes = new Map<string, Query>();
  return (values) => {
    const fields = Object.entries(values).map(
      ([group, row]) => [group, Object.keys(row).filter((field) => row[field] !== undefined)] as const,
    );
    const shape = JSON.stringify(fields);
    let query = shapes.get(shape);
    if (!query) {
      const placeholders = Object.fromEntries(
        fields.map(([group, names]) => [group, Object.fromEntries(names.map((name) => [name, sql.placeholder(`${group}.${name}`)]))]),
      ) as Placeholders<V>;
      query = dialect.sqlToQuery(build(placeholders));
      shapes.set(shape, query);
    }
    const params = query.params.map((param) => {
      const placeholder = is(param, Param) ? param.value : param;
      if (!is(placeholder, Placeholder)) return param;
      const [group, name] = placeholder.name.split(".") as [string, string];
      const value = values[group]![name];
      // As a direct build encodes a value (dialect.sqlToQuery): null stays null.
      return value === null || !is(param, Param) ? value : param.encoder.mapToDriverValue(value);
    });
    return { sql: query.sql, params };
  };
}

/**
 * Sends `query` as `db.execute` would, but as a named prepared statement: postgres.js
 * keeps one per text on each connection, so PostgreSQL parses the text once per
 * connection and, after its first executions, reuses a plan instead of planning each
 * call (`db.execute` sends an unnamed statement, parsed and planned every time: for
 * createOrder's statements that was about a third of their database time). Only for
 * statements whose text is the same on every call (values as parameters), or the
 * connection's cache grows with every distinct text.
 */
export function executePrepared<R>(db: Db, query: SQL): Promise<R[]> {
  return sendPrepared<R>(db, dialect.sqlToQuery(query));
}

function sendPrepared<R>(db: Db, query: Query): Promise<R[]> {
  // Drizzle's postgres-js session prepares (postgres.js `prepare: true`) when given a name; the name itself is unused.
  return db._.session.prepareQuery(query, undefined, "prepared", false).execute() as Promise<R[]>;
}
