import { and, desc, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { partners, type Environment } from "@/db/schema";
import { AppError } from "@/server/errors";
import { getOrganisationOrThrow } from "./account";
import { searchOrdersForStaff } from "./admin-orders";
import { listKeys } from "./keys";
import { listRequests } from "./request-log";
import { deliveryStats } from "./webhook-console";

// Partners as staff see them: a searchable list, and one partner's page that
// gathers what the other screens show per partner (keys, webhook health,
// recent requests, orders), each read by the service of its own screen.

const PARTNER_ID = /^ptn_[0-9A-Za-z]{22}$/;

export async function searchPartners(db: Db, input: { q?: string; cursor?: string | null; limit: number }) {
  if (input.cursor && !PARTNER_ID.test(input.cursor)) throw new AppError("validation_error", "cursor is not a partner id of this listing");
  const term = input.q ? `%${input.q.replace(/[%_\\]/g, "\\$&")}%` : undefined;
  const filters: (SQL | undefined)[] = [
    term ? or(ilike(partners.name, term), ilike(partners.email, term), ilike(partners.id, term)) : undefined,
    input.cursor ? lt(partners.id, input.cursor) : undefined,
  ];
  const rows = await db
    .select()
    .from(partners)
    .where(and(...filters))
    .orderBy(desc(partners.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return {
    partners: page.map((p) => ({
      id: p.id,
      name: p.name,
      email: p.email,
      paymentModel: p.paymentModel,
      isAffiliate: p.isAffiliate,
      liveApprovedAt: p.liveApprovedAt?.toISOString() ?? null,
      suspendedAt: p.suspendedAt?.toISOString() ?? null,
      createdAt: p.createdAt.toISOString(),
    })),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** One partner for staff: the organisation, then per environment its keys, webhook health (7 days) and latest requests, and its latest orders. */
export async function getPartnerForStaff(db: Db, partnerId: string) {
  const organisation = await getOrganisationOrThrow(db, partnerId);
  const since = new Date(Date.now() - 7 * 86_400_000);
  const perEnvironment = async (environment: Environment) => {
    const owner = { partnerId, environment };
    const [keys, webhooks, requests] = await Promise.all([
      listKeys(db, { ...owner, includeRevoked: true }),
      deliveryStats(db, owner, { from: since, to: new Date(Date.now() + 60_000) }),
      listRequests(db, { ...owner, limit: 10 }),
    ]);
    return { environment, keys, webhooks, requests: requests.requests };
  };
  const [sandbox, live, orders, balances] = await Promise.all([
    perEnvironment("sandbox"),
    perEnvironment("live"),
    searchOrdersForStaff(db, { partnerId, limit: 10 }),
    partnerBalances(db, partnerId),
  ]);
  return { organisation, environments: [live, sandbox], orders: orders.orders, balances };
}

/**
 * Money in flight with a partner, per environment and currency: sales paid but
 * not yet settled (gross and the commission on them) and payouts owed to the
 * partner that staff have not sent yet. One round trip.
 */
export async function partnerBalances(db: Db, partnerId: string) {
  const rows = await db.execute<{
    environment: Environment;
    currency: string;
    unsettled_orders: number;
    unsettled_gross: string;
    unsettled_commission: string;
    payouts_pending: string;
  }>(sql`
    select environment, currency, sum(n)::int as unsettled_orders, sum(gross)::text as unsettled_gross,
           sum(commission)::text as unsettled_commission, sum(pending)::text as payouts_pending
    from (
      select environment, currency, count(*) as n, sum(sale_price_cents) as gross, sum(commission_cents) as commission, 0 as pending
      from orders
      where partner_id = ${partnerId} and status in ('EXTERNALLY_PAID', 'PAID', 'MANUAL_REVIEW', 'TRANSFER_IN_PROGRESS', 'TRANSFER_COMPLETED')
      group by 1, 2
      union all
      select environment, currency, 0, 0, 0, sum(amount_cents)
      from payouts where partner_id = ${partnerId} and status = 'pending'
      group by 1, 2
    ) t
    group by 1, 2
    order by 1, 2`);
  return rows.map((r) => ({
    environment: r.environment,
    currency: r.currency,
    unsettledOrders: r.unsettled_orders,
    unsettledGrossCents: Number(r.unsettled_gross),
    unsettledCommissionCents: Number(r.unsettled_commission),
    payoutsPendingCents: Number(r.payouts_pending),
  }));
}
