import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { PgDialect } from "drizzle-orm/pg-core";
import { clock } from "@/server/clock";
import { canonicalQuery } from "@/server/signing/canonical";
import { listingRead, listingSql } from "@/server/services/discovery";

// GET /availability's per-request shortcuts give exactly what the general paths give.

describe("listingRead", () => {
  it("is listingSql's text and values, compiled once", () => {
    clock.freeze(new Date("2026-11-27T08:00:00.000Z"));
    try {
      const input = { partnerId: "prt_1", environment: "sandbox" as const };
      const built = new PgDialect().sqlToQuery(listingSql({ ...input, domain: "Example.COM." }));
      const read = listingRead({ ...input, name: "example.com" });
      assert.equal(read.sql, built.sql);
      assert.deepEqual(read.params, built.params);
      assert.ok(read.params.includes("2026-11-27T08:00:00.000Z"));
    } finally {
      clock.reset();
    }
  });
});

describe("canonicalQuery's single plain pair", () => {
  it("is what the general rule gives", () => {
    const plain = fc.string({ unit: fc.constantFrom(..."azAZ09._~-"), minLength: 1 });
    fc.assert(
      fc.property(plain, fc.string({ unit: fc.constantFrom(..."azAZ09._~-") }), (key, value) => {
        const general = canonicalQuery(new URLSearchParams(`${key}=${value}`));
        assert.equal(canonicalQuery(`?${key}=${value}`), general);
        assert.equal(canonicalQuery(`${key}=${value}`), general);
      }),
    );
  });
});
