import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseBudget, parseStatusFilter, stepOf } from "@/app/(dashboard)/dashboard/brokerage/brokerage-format";
import { fillDays, formatAmounts, formatPeriod, formatRate, periodOf, periodStart } from "@/app/(dashboard)/dashboard/links/link-format";

// The display rules of the Growth pages that turn input or report data into
// numbers: budgets typed by people, the URL's status filter, the period window
// and the gap-filled click series.

describe("brokerage budget and filters", () => {
  it("parses a budget to minor units without floats, refusing anything else", () => {
    assert.equal(parseBudget("15000"), 1_500_000);
    assert.equal(parseBudget(" 12,500.5 "), 1_250_050);
    assert.equal(parseBudget("0.07"), 7);
    assert.equal(parseBudget("19.99"), 1999, "no 19.989999 float surprises");
    for (const bad of ["", "abc", "0", "0.00", "1.234", "-5", "1e5", "90071992547409.92"]) assert.equal(parseBudget(bad), null, bad);
  });

  it("reads the URL's status list, dropping unknown or repeated values", () => {
    assert.deepEqual(parseStatusFilter("OPEN,RESEARCHING,OPEN"), ["OPEN", "RESEARCHING"]);
    assert.deepEqual(parseStatusFilter("COMPLETED,bogus"), ["COMPLETED"]);
    assert.equal(parseStatusFilter(""), undefined);
    assert.equal(parseStatusFilter("nope"), undefined);
  });

  it("numbers the steps of a case; a case closed without a deal has none", () => {
    assert.equal(stepOf("OPEN"), 1);
    assert.equal(stepOf("COMPLETED"), 4);
    assert.equal(stepOf("CLOSED_NO_DEAL"), null);
  });
});

describe("referral report periods and figures", () => {
  const now = new Date("2026-03-10T15:30:00Z");

  it("starts a period at midnight UTC, today counting as its last day", () => {
    assert.equal(periodStart(periodOf("7d"), now), "2026-03-04T00:00:00.000Z");
    assert.equal(periodOf("bogus").value, "30d");
  });

  it("fills the days without clicks so the chart has one bar per day", () => {
    const days = fillDays([{ date: "2026-03-05", clicks: 3 }, { date: "2026-03-10", clicks: 1 }], periodOf("7d"), now);
    assert.equal(days.length, 7);
    assert.deepEqual(days[0], { date: "2026-03-04", clicks: 0 });
    assert.deepEqual(days[1], { date: "2026-03-05", clicks: 3 });
    assert.deepEqual(days[6], { date: "2026-03-10", clicks: 1 });
  });

  it("formats rates, amounts in several currencies and settlement periods", () => {
    assert.equal(formatRate(1, 40), "2.5%");
    assert.equal(formatRate(1, 8), "13%", "whole percents from 10% up");
    assert.equal(formatRate(3, 3), "100%");
    assert.equal(formatRate(1, 0), null);
    assert.equal(formatAmounts([{ currency: "USD", cents: 12_900 }, { currency: "EUR", cents: 500 }]), "$129.00 + €5.00");
    assert.equal(formatAmounts([{ currency: "USD", cents: 0 }]), "—");
    assert.equal(formatPeriod("2026-02-01", "2026-03-01"), "February 2026");
    assert.equal(formatPeriod("2025-12-01", "2026-01-01"), "December 2025");
    assert.equal(formatPeriod("2026-03-03", "2026-03-10"), "Mar 3 – Mar 9");
  });
});
