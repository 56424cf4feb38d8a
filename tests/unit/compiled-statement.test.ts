import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { and, eq, sql, type Query, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Db } from "@/db/client";
import { compiledStatement } from "@/db/compiled";
import * as schema from "@/db/schema";
import { auditLog, domains, orderTimeline } from "@/db/schema";

// compiledStatement must send exactly what a direct build of the same builders sends:
// the same text and the same encoded parameters, whatever the values and the fields set.

const built = drizzle.mock({ schema, casing: "snake_case" }) as unknown as Db;
const dialect = new PgDialect({ casing: "snake_case" });

/** A Db whose session records the query it is asked to run instead of sending it. */
function recordingDb(): { db: Db; sent: Query[] } {
  const sent: Query[] = [];
  const db = Object.create(built) as Db;
  Object.defineProperty(db, "_", {
    value: {
      session: {
        prepareQuery: (query: Query) => {
          sent.push(query);
          return { execute: async () => [] };
        },
      },
    },
  });
  return { db, sent };
}

type Values = {
  entry: { orderId: string; status: "EXTERNALLY_PAID"; note: string; actor: string; at: Date };
  audit: { id: string; actorType: string; actorId?: string | null; action: string; targetType: string; targetId: string; data: Record<string, unknown>; createdAt: Date };
  sold: { id: string; updatedAt: Date };
};

function direct(db: Db, v: Values): SQL {
  const entry = db.insert(orderTimeline).values(v.entry).returning();
  const audit = db.insert(auditLog).values(v.audit);
  const sold = db.update(domains).set({ status: "sold", updatedAt: v.sold.updatedAt }).where(and(eq(domains.id, v.sold.id), sql`true`));
  return sql`with entry as (${entry.getSQL()}), audit as (${audit.getSQL()}), sold as (${sold.getSQL()}) select row_to_json(entry) from entry`;
}

const statement = compiledStatement<Values, Record<string, unknown>>((db, p) => {
  const entry = db.insert(orderTimeline).values(p.entry).returning();
  const audit = db.insert(auditLog).values(p.audit);
  const sold = db
    .update(domains)
    .set({ status: "sold", updatedAt: sql`${sql.param(p.sold.updatedAt, domains.updatedAt)}` })
    .where(and(eq(domains.id, p.sold.id), sql`true`));
  return sql`with entry as (${entry.getSQL()}), audit as (${audit.getSQL()}), sold as (${sold.getSQL()}) select row_to_json(entry) from entry`;
});

function values(n: number, actorId: string | null | undefined): Values {
  const at = new Date(Date.UTC(2026, 10, 27, 5, n, 7, 123));
  return {
    entry: { orderId: `ord_${n}`, status: "EXTERNALLY_PAID", note: `note ${n}`, actor: "partner", at },
    audit: { id: `aud_${n}`, actorType: "partner", actorId, action: "order.recorded", targetType: "order", targetId: `ord_${n}`, data: { n, quote_id: null, list: [1, "a"] }, createdAt: at },
    sold: { id: `dom_${n}`, updatedAt: at },
  };
}

describe("compiledStatement", () => {
  it("sends the text and parameters of a direct build, for every call and every shape", async () => {
    const { db, sent } = recordingDb();
    const inputs = [values(1, "ptn_1"), values(2, "ptn_2"), values(3, null), values(4, undefined), values(5, "ptn_5")];
    for (const input of inputs) await statement(db, input);
    assert.equal(sent.length, inputs.length);
    inputs.forEach((input, i) => {
      const expected = dialect.sqlToQuery(direct(built, input));
      assert.equal(sent[i]!.sql, expected.sql, `text of call ${i + 1}`);
      assert.deepEqual(sent[i]!.params, expected.params, `parameters of call ${i + 1}`);
    });
    // A field left undefined is the column's default (no parameter), as in a direct build; null is a parameter.
    assert.ok(sent[3]!.params.length === sent[2]!.params.length - 1);
    assert.ok(sent[2]!.params.includes(null));
    // Dates and jsonb are encoded by their columns, not handed to the driver as objects.
    assert.ok(sent[0]!.params.includes("2026-11-27T05:01:07.123Z"));
    assert.ok(sent[0]!.params.includes(JSON.stringify({ n: 1, quote_id: null, list: [1, "a"] })));
  });
});
