import type { Db } from "@/db/client";
import { getReportingAccessOrThrow } from "./finance";
import { checkoutSeries, fillBuckets, referralSeries, requestSeries, salesSeries, webhookSeries, type Owner, type TimeWindow } from "./finance-series";
import { getAnalytics } from "./referral-reports";
import { listTransactions } from "./transactions";
import { deliveryStats } from "./webhook-console";

// The key figures of the dashboard's home for a period (the last 7, 30 or 90
// UTC days, today included), each with a daily sparkline and its change against
// the period of equal length just before.
//
// Money is computed by the REST reports' own functions, so the home agrees with
// them to the cent: GMV, order count and sales commission are GET /transactions
// `totals` over the period (listTransactions), referral commission is GET
// /analytics `revenue` (getAnalytics). The sparklines come from the grouped
// queries of finance-series.ts, whose days add up to those totals.

export const homePeriods = { "7d": 7, "30d": 30, "90d": 90 } as const;
export type HomePeriod = keyof typeof homePeriods;

const DAY_MS = 86_400_000;

/** The period: N whole UTC days ending with today; the previous one is the N days before it. */
export function homeWindows(period: HomePeriod, now: Date): { current: TimeWindow; previous: TimeWindow } {
  const days = homePeriods[period];
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const from = tomorrow - days * DAY_MS;
  return {
    current: { from: new Date(from), to: new Date(tomorrow) },
    previous: { from: new Date(from - days * DAY_MS), to: new Date(from) },
  };
}

export type Change = { kind: "percent" | "points"; value: number } | null;

/** Relative change of an amount or count; none when the previous period had nothing. */
export function percentChange(current: number, previous: number): Change {
  if (previous === 0) return null;
  return { kind: "percent", value: Math.round(((current - previous) / previous) * 1000) / 10 };
}

/** Change of a rate in percentage points; none when either period has no rate. */
export function pointsChange(current: number | null, previous: number | null): Change {
  if (current === null || previous === null) return null;
  return { kind: "points", value: Math.round((current - previous) * 1000) / 10 };
}

const rate = (part: number, whole: number) => (whole > 0 ? part / whole : null);

interface MoneyByCurrency {
  currency: string;
  cents: number;
  previousCents: number;
}

interface WindowMoney {
  sales: Map<string, { count: number; gmvCents: number; commissionCents: number }>;
  referral: Map<string, number>;
}

async function moneyOf(db: Db, owner: Owner, window: TimeWindow, isAffiliate: boolean): Promise<WindowMoney> {
  const [transactions, analytics] = await Promise.all([
    // limit 1: only the totals are wanted, and they cover every page of the filter.
    listTransactions(db, { ...owner, ...window, limit: 1 }),
    isAffiliate ? getAnalytics(db, { ...owner, ...window }) : Promise.resolve(null),
  ]);
  return {
    sales: new Map(transactions.totals.map((t) => [t.currency, t])),
    referral: new Map((analytics?.revenue ?? []).map((r) => [r.currency, r.commission_cents])),
  };
}

/** The currency the headline shows: the period's biggest by GMV, then commission; USD for a quiet partner. */
function primaryCurrencyOf(current: WindowMoney, previous: WindowMoney): string {
  const gmv = (m: WindowMoney, c: string) => m.sales.get(c)?.gmvCents ?? 0;
  const commission = (m: WindowMoney, c: string) => (m.sales.get(c)?.commissionCents ?? 0) + (m.referral.get(c) ?? 0);
  const all = [...new Set([...current.sales.keys(), ...current.referral.keys(), ...previous.sales.keys(), ...previous.referral.keys()])].sort();
  const ranked = all.sort(
    (a, b) =>
      gmv(current, b) - gmv(current, a) ||
      commission(current, b) - commission(current, a) ||
      gmv(previous, b) - gmv(previous, a) ||
      commission(previous, b) - commission(previous, a),
  );
  return ranked[0] ?? "USD";
}

export async function getHomeFigures(db: Db, input: Owner & { period: HomePeriod; now: Date }) {
  const owner = { partnerId: input.partnerId, environment: input.environment };
  const access = await getReportingAccessOrThrow(db, input.partnerId);
  const { current, previous } = homeWindows(input.period, input.now);
  const days = homePeriods[input.period];
  const dates = Array.from({ length: days }, (_, i) => new Date(current.from.getTime() + i * DAY_MS).toISOString().slice(0, 10));

  const [money, moneyBefore, sales, referral, checkout, checkoutBefore, webhooks, webhooksBefore, webhookDays, requests, requestsBefore] =
    await Promise.all([
      moneyOf(db, owner, current, access.isAffiliate),
      moneyOf(db, owner, previous, access.isAffiliate),
      salesSeries(db, owner, current, "day"),
      access.isAffiliate ? referralSeries(db, owner, current, "day") : Promise.resolve([]),
      checkoutSeries(db, owner, current, "day"),
      checkoutSeries(db, owner, previous, "day"),
      deliveryStats(db, owner, current),
      deliveryStats(db, owner, previous),
      webhookSeries(db, owner, current, "day"),
      requestSeries(db, owner, current, "day"),
      requestSeries(db, owner, previous, "day"),
    ]);

  const currency = primaryCurrencyOf(money, moneyBefore);
  const currencies = [...new Set([...money.sales.keys(), ...money.referral.keys(), ...moneyBefore.sales.keys(), ...moneyBefore.referral.keys()])].sort();
  const gmvOf = (m: WindowMoney, c: string) => m.sales.get(c)?.gmvCents ?? 0;
  const commissionOf = (m: WindowMoney, c: string) => (m.sales.get(c)?.commissionCents ?? 0) + (m.referral.get(c) ?? 0);
  const byCurrency = (of: (m: WindowMoney, c: string) => number): MoneyByCurrency[] =>
    currencies.map((c) => ({ currency: c, cents: of(money, c), previousCents: of(moneyBefore, c) }));
  const orderCount = (m: WindowMoney) => [...m.sales.values()].reduce((n, t) => n + t.count, 0);

  const salesInCurrency = sales.filter((s) => s.currency === currency);
  const referralInCurrency = referral.filter((r) => r.currency === currency);
  const salesByDay = (pick: (row: (typeof sales)[number] | undefined) => number) => fillBuckets(dates, salesInCurrency, pick);
  const ordersByDay = dates.map((d) => sales.filter((s) => s.bucket === d).reduce((n, s) => n + s.orders, 0));
  const referralByDay = fillBuckets(dates, referralInCurrency, (r) => r?.commissionCents ?? 0);

  const sum = <T>(rows: T[], pick: (row: T) => number) => rows.reduce((n, r) => n + pick(r), 0);
  const created = sum(checkout, (r) => r.created);
  const paid = sum(checkout, (r) => r.paid);
  const conversion = rate(paid, created);
  const conversionBefore = rate(sum(checkoutBefore, (r) => r.paid), sum(checkoutBefore, (r) => r.created));
  const webhookRate = rate(webhooks.succeeded, webhooks.succeeded + webhooks.failed);
  const webhookRateBefore = rate(webhooksBefore.succeeded, webhooksBefore.succeeded + webhooksBefore.failed);
  const requestTotal = sum(requests, (r) => r.total);
  const requestErrors = sum(requests, (r) => r.errors);
  const errorRate = rate(requestErrors, requestTotal);
  const errorRateBefore = rate(sum(requestsBefore, (r) => r.errors), sum(requestsBefore, (r) => r.total));

  const gmv = gmvOf(money, currency);
  const gmvBefore = gmvOf(moneyBefore, currency);
  const commission = commissionOf(money, currency);
  const commissionBefore = commissionOf(moneyBefore, currency);

  return {
    period: input.period,
    from: current.from.toISOString(),
    to: current.to.toISOString(),
    previousFrom: previous.from.toISOString(),
    previousTo: previous.to.toISOString(),
    dates,
    currency,
    isAffiliate: access.isAffiliate,
    gmv: {
      value: gmv,
      previous: gmvBefore,
      change: percentChange(gmv, gmvBefore),
      byCurrency: byCurrency(gmvOf),
      series: salesByDay((s) => s?.gmvCents ?? 0),
    },
    orders: {
      value: orderCount(money),
      previous: orderCount(moneyBefore),
      change: percentChange(orderCount(money), orderCount(moneyBefore)),
      series: ordersByDay,
    },
    commission: {
      value: commission,
      previous: commissionBefore,
      change: percentChange(commission, commissionBefore),
      salesCents: money.sales.get(currency)?.commissionCents ?? 0,
      referralCents: money.referral.get(currency) ?? 0,
      byCurrency: byCurrency(commissionOf),
      series: salesByDay((s) => s?.commissionCents ?? 0).map((cents, i) => cents + (referralByDay[i] ?? 0)),
    },
    checkoutConversion: {
      value: conversion,
      previous: conversionBefore,
      change: pointsChange(conversion, conversionBefore),
      created,
      paid,
      series: fillBuckets(dates, checkout, (r) => (r ? rate(r.paid, r.created) : null)),
    },
    webhookSuccess: {
      value: webhookRate,
      previous: webhookRateBefore,
      change: pointsChange(webhookRate, webhookRateBefore),
      succeeded: webhooks.succeeded,
      failed: webhooks.failed,
      pending: webhooks.pending,
      series: fillBuckets(dates, webhookDays, (r) => (r ? rate(r.succeeded, r.succeeded + r.failed) : null)),
    },
    apiErrors: {
      value: errorRate,
      previous: errorRateBefore,
      change: pointsChange(errorRate, errorRateBefore),
      total: requestTotal,
      errors: requestErrors,
      serverErrors: sum(requests, (r) => r.serverErrors),
      series: fillBuckets(dates, requests, (r) => (r ? rate(r.errors, r.total) : null)),
    },
  };
}

export type HomeFigures = Awaited<ReturnType<typeof getHomeFigures>>;
