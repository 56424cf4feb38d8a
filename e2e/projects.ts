/**
 * Specs that close the month for every partner (a global settlement run). They run
 * one at a time after all the others (playwright.config.ts, project "month-close"),
 * so no other spec sees its own orders settled while it runs.
 */
export const MONTH_CLOSE = ["api/mor-flow.spec.ts", "dashboard/finance.spec.ts"];
