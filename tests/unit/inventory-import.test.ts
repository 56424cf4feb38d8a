import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { amountText, parseAmount } from "@/app/admin/inventory/amount";
import { parseCsv } from "@/server/services/inventory-import";

// The pieces of the inventory import and forms that need no database: CSV
// records with the line each starts on (the report names lines), and amounts
// typed by staff turned into minor units without floats.

describe("parseCsv", () => {
  it("reads quoted cells, doubled quotes, CRLF and LF, and skips blank lines keeping line numbers", () => {
    const records = parseCsv('name,price_cents\r\n"a,b.com",100\n\n"say ""hi"".com", 200 \n  \nlast.com,3');
    assert.deepEqual(records, [
      { line: 1, cells: ["name", "price_cents"] },
      { line: 2, cells: ["a,b.com", "100"] },
      { line: 4, cells: ['say "hi".com', " 200 "] },
      { line: 6, cells: ["last.com", "3"] },
    ]);
  });

  it("a record spanning lines keeps its first line; the next record counts every line", () => {
    assert.deepEqual(parseCsv('a,"x\ny"\nb,1'), [
      { line: 1, cells: ["a", "x\ny"] },
      { line: 3, cells: ["b", "1"] },
    ]);
  });

  it("refuses an unclosed quote, naming its line", () => {
    assert.throws(() => parseCsv('name\nok.com\n"open.com'), /line 3/);
  });
});

describe("amounts", () => {
  it("parses what staff type into minor units of the currency", () => {
    assert.equal(parseAmount("1,250", "USD"), 125_000);
    assert.equal(parseAmount(" 900.5 ", "usd"), 90_050);
    assert.equal(parseAmount("1500", "JPY"), 1500);
    assert.equal(parseAmount("1.5", "JPY"), null);
    assert.equal(parseAmount("1.234", "USD"), null);
    assert.equal(parseAmount("-3", "USD"), null);
    assert.equal(parseAmount("abc", "USD"), null);
  });

  it("round-trips any amount through its text", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e11 }), fc.constantFrom("USD", "EUR", "JPY", "KWD"), (cents, currency) => {
        assert.equal(parseAmount(amountText(cents, currency), currency), cents);
      }),
    );
  });
});
