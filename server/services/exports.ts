import { z } from "zod";
import type { Db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { orderFiltersQuery } from "@/server/contracts/orders";
import { listCommissionsQuery } from "@/server/contracts/referrals";
import { listPayoutsQuery, listSettlementsQuery, listTransactionsQuery } from "@/server/contracts/settlements";
import { AppError } from "@/server/errors";
import { csvStream, formatAmount, keysetBatches, type CsvColumn, type Page } from "./csv";
import { maskEmail, maskName } from "./order-console";
import type { OrderRow } from "./order-states";
import { listOrders } from "./orders";
import { listPayouts, type PayoutRow } from "./payouts";
import { listCommissionEntries } from "./referral-reports";
import { requireAffiliate } from "./referrals";
import { listSettlements, type SettlementRow } from "./settlements";
import { listTransactionRows } from "./transactions";

// The dashboard's CSV exports. Each list takes exactly the filter parameters of
// its REST list (the same zod schema, without limit and cursor), pages with the
// same service function in batches of EXPORT_BATCH rows, and follows the same
// partner rules (settlements: merchant-of-record partners; commissions: affiliate
// accounts). Batches are separate reads, not one long transaction: a slow
// download must not hold a transaction open (idle ones end after 30 s), and
// keyset paging never repeats or skips a row that existed when the export began.

export const EXPORT_BATCH = 1000;

export interface ExportReader {
  partnerId: string;
  environment: Environment;
  paymentModel: "mor" | "non_mor";
  isAffiliate: boolean;
  /** Viewers get buyer details masked, as on the order page. */
  viewer: boolean;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

interface ExportList<Q extends z.ZodType, T> {
  query: Q;
  columns: (reader: ExportReader) => CsvColumn<T>[];
  page: (db: Db, reader: ExportReader, filters: z.output<Q>, cursor: string | undefined, limit: number) => Promise<Page<T>>;
}

const defineList = <Q extends z.ZodType, T>(list: ExportList<Q, T>) => list;

const orderColumns = (reader: ExportReader): CsvColumn<OrderRow>[] => [
  { header: "order_id", value: (o) => o.id },
  { header: "created_at", value: (o) => iso(o.createdAt) },
  { header: "domain", value: (o) => o.domain },
  { header: "status", value: (o) => o.status },
  { header: "channel", value: (o) => o.channel },
  { header: "currency", value: (o) => o.currency },
  { header: "sale_price", value: (o) => formatAmount(o.salePriceCents, o.currency) },
  { header: "commission_bps", value: (o) => o.commissionBps },
  { header: "commission", value: (o) => formatAmount(o.commissionCents, o.currency) },
  { header: "buyer_email", value: (o) => (reader.viewer ? maskEmail(o.buyerEmail) : o.buyerEmail) },
  { header: "buyer_name", value: (o) => (reader.viewer ? maskName(o.buyerName) : o.buyerName) },
  { header: "buyer_country", value: (o) => o.buyerCountry },
  { header: "external_payment_ref", value: (o) => o.externalPaymentRef },
  { header: "transfer_completed_at", value: (o) => iso(o.transferCompletedAt) },
  { header: "settlement_id", value: (o) => o.settlementId },
  { header: "updated_at", value: (o) => iso(o.updatedAt) },
];

const exportLists = {
  orders: defineList({
    query: orderFiltersQuery,
    columns: orderColumns,
    page: async (db, reader, q, cursor, limit) => {
      const page = await listOrders(db, {
        partnerId: reader.partnerId,
        environment: reader.environment,
        statuses: q.status,
        channels: q.channel,
        domain: q.domain,
        search: q.q,
        from: q.from,
        to: q.to,
        cursor,
        limit,
      });
      return { rows: page.orders, nextCursor: page.nextCursor };
    },
  }),
  transactions: defineList({
    query: listTransactionsQuery.omit({ limit: true, cursor: true }),
    columns: (): CsvColumn<OrderRow>[] => [
      { header: "id", value: (o) => o.id },
      { header: "created_at", value: (o) => iso(o.createdAt) },
      { header: "domain", value: (o) => o.domain },
      { header: "status", value: (o) => o.status },
      { header: "payment_model", value: (o) => o.channel },
      { header: "currency", value: (o) => o.currency },
      { header: "sale_price", value: (o) => formatAmount(o.salePriceCents, o.currency) },
      { header: "commission_bps", value: (o) => o.commissionBps },
      { header: "commission", value: (o) => formatAmount(o.commissionCents, o.currency) },
      { header: "transfer_completed_at", value: (o) => iso(o.transferCompletedAt) },
      { header: "settlement_id", value: (o) => o.settlementId },
    ],
    page: (db, reader, q, cursor, limit) =>
      listTransactionRows(db, {
        partnerId: reader.partnerId,
        environment: reader.environment,
        from: q.from,
        to: q.to,
        statuses: q.status,
        paymentModels: q.payment_model,
        cursor,
        limit,
      }),
  }),
  settlements: defineList({
    query: listSettlementsQuery.omit({ limit: true, cursor: true }),
    columns: (): CsvColumn<SettlementRow>[] => [
      { header: "id", value: (s) => s.id },
      { header: "period_start", value: (s) => s.periodStart },
      { header: "period_end", value: (s) => s.periodEnd },
      { header: "sequence", value: (s) => s.sequence },
      { header: "status", value: (s) => s.status },
      { header: "currency", value: (s) => s.currency },
      { header: "gross_sold", value: (s) => formatAmount(s.grossSoldCents, s.currency) },
      { header: "commission_retained", value: (s) => formatAmount(s.commissionRetainedCents, s.currency) },
      { header: "amount_owed", value: (s) => formatAmount(s.amountOwedCents ?? s.grossSoldCents - s.commissionRetainedCents, s.currency) },
      { header: "order_count", value: (s) => s.orderCount },
      { header: "created_at", value: (s) => iso(s.createdAt) },
    ],
    // listSettlements refuses a partner that is not merchant of record, as GET /settlements does.
    page: (db, reader, q, cursor, limit) =>
      listSettlements(db, {
        partnerId: reader.partnerId,
        environment: reader.environment,
        paymentModel: reader.paymentModel,
        from: q.from,
        to: q.to,
        currency: q.currency,
        cursor,
        limit,
      }),
  }),
  payouts: defineList({
    query: listPayoutsQuery.omit({ limit: true, cursor: true }),
    columns: (): CsvColumn<PayoutRow>[] => [
      { header: "id", value: (p) => p.id },
      { header: "created_at", value: (p) => iso(p.createdAt) },
      { header: "kind", value: (p) => p.kind },
      { header: "status", value: (p) => p.status },
      { header: "currency", value: (p) => p.currency },
      { header: "amount", value: (p) => formatAmount(p.amountCents, p.currency) },
      { header: "settlement_id", value: (p) => p.settlementId },
      { header: "period_start", value: (p) => p.periodStart },
      { header: "period_end", value: (p) => p.periodEnd },
      { header: "paid_at", value: (p) => iso(p.paidAt) },
      { header: "reference", value: (p) => p.reference },
    ],
    page: (db, reader, q, cursor, limit) =>
      listPayouts(db, { partnerId: reader.partnerId, environment: reader.environment, from: q.from, to: q.to, kinds: q.kind, cursor, limit }),
  }),
  commissions: defineList({
    query: listCommissionsQuery.omit({ limit: true, cursor: true }),
    columns: (): CsvColumn<Awaited<ReturnType<typeof listCommissionEntries>>["rows"][number]>[] => [
      { header: "id", value: (c) => c.id },
      { header: "created_at", value: (c) => c.created_at },
      { header: "source", value: (c) => c.source },
      { header: "source_id", value: (c) => c.source_id },
      { header: "order_id", value: (c) => c.order_id },
      { header: "state", value: (c) => c.state },
      { header: "currency", value: (c) => c.currency },
      { header: "amount", value: (c) => formatAmount(c.amount_cents, c.currency) },
      { header: "balance", value: (c) => formatAmount(c.balance_cents, c.currency) },
      { header: "payout_id", value: (c) => c.payout_id },
      { header: "updated_at", value: (c) => c.updated_at },
    ],
    page: (db, reader, q, cursor, limit) => {
      // GET /me/commissions serves affiliate accounts only; so does its export.
      requireAffiliate(reader);
      return listCommissionEntries(db, { partnerId: reader.partnerId, environment: reader.environment, ...q, cursor, limit });
    },
  }),
};

export type ExportListName = keyof typeof exportLists;
export const exportListNames = Object.keys(exportLists) as ExportListName[];

export function isExportList(name: string): name is ExportListName {
  return Object.hasOwn(exportLists, name);
}

export interface StartedExport {
  stream: ReadableStream<Uint8Array>;
  filename: string;
}

/**
 * Parses the filters, reads the first batch (so bad filters and refusals are
 * errors before any byte is sent) and returns the CSV stream of the rest.
 */
export async function startExport(
  db: Db,
  input: { list: ExportListName; reader: ExportReader; params: URLSearchParams; now: Date; batchSize?: number; logTag: string },
): Promise<StartedExport> {
  const list = exportLists[input.list] as ExportList<z.ZodType, unknown>;
  const parsed = list.query.safeParse(Object.fromEntries(input.params));
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
    throw new AppError("validation_error", details.map((d) => `${d.path || "query"}: ${d.message}`).join("; "), details);
  }
  const limit = input.batchSize ?? EXPORT_BATCH;
  const batches = await keysetBatches((cursor) => list.page(db, input.reader, parsed.data, cursor, limit));
  return {
    stream: csvStream(list.columns(input.reader), batches, input.logTag),
    filename: `${input.list}-${input.reader.environment}-${input.now.toISOString().slice(0, 10)}.csv`,
  };
}
