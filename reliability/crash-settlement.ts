import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { orders } from "@/db/schema";
import type { OrderStatus } from "@/server/services/order-states";
import { runSandboxSettlement, simulateOrder } from "@/server/services/sandbox-simulators";
import { exactly, figure, inBatches, type Figure } from "./lib/figures";

// After the crash run: every order of the harness partner walks to a completed
// transfer with the sandbox simulator (the order state machine), the partner's
// settlement runs (runSettlement, through the sandbox's run-now), and its
// statements are checked against what the database holds independently:
//   statements   per payment model, order count, gross, commission and the
//                amount owed (MoR) or payable (hosted checkout) equal the sums
//                over the partner's orders of that channel; every order SETTLED
//   money        hosted-checkout gross = what the succeeded payments collected
//   commission   payable = the commission payouts = the sale commissions in
//                the ledger, all of them paid out

const system = { type: "system" } as const;

export async function settleAndBalance(partnerId: string): Promise<Figure[]> {
  const db = getDb();
  const owner = { partnerId, environment: "sandbox" as const };
  const placed = await db.select({ id: orders.id, status: orders.status }).from(orders).where(eq(orders.partnerId, partnerId));
  await inBatches(
    placed.map((order) => async () => {
      for (let status: OrderStatus = order.status, step = 0; status !== "TRANSFER_COMPLETED" && step < 4; step++) {
        status = (await simulateOrder(db, owner, { orderId: order.id, simulation: "advance" }, system)).order.status;
      }
    }),
    4,
  );
  const run = await runSandboxSettlement(db, owner, system);

  const byChannel = await db.execute<{ model: string; orders: number; gross: number; commission: number }>(sql`
    select case channel when 'mor' then 'mor' else 'non_mor' end as model, count(*)::int as orders,
      coalesce(sum(sale_price_cents), 0)::bigint as gross, coalesce(sum(commission_cents), 0)::bigint as commission
    from orders where partner_id = ${partnerId} group by 1`);
  const stated = await db.execute<{ model: string; orders: number; gross: number; commission: number; owed: number | null; payable: number | null }>(sql`
    select payment_model as model, sum(order_count)::int as orders, sum(gross_sold_cents)::bigint as gross,
      sum(commission_retained_cents)::bigint as commission, sum(amount_owed_cents)::bigint as owed, sum(commission_payable_cents)::bigint as payable
    from settlements where partner_id = ${partnerId} group by 1`);
  let totalsOff = 0;
  for (const expected of byChannel) {
    const s = stated.find((row) => row.model === expected.model);
    const owedOrPayable = expected.model === "mor" ? Number(s?.owed) : Number(s?.payable);
    const wanted = expected.model === "mor" ? Number(expected.gross) - Number(expected.commission) : Number(expected.commission);
    if (!s || s.orders !== expected.orders || Number(s.gross) !== Number(expected.gross) || Number(s.commission) !== Number(expected.commission) || owedOrPayable !== wanted) totalsOff++;
  }
  const [money] = await db.execute<{ collected: number; unsettled: number; ledger: number; ledger_open: number; paid_out: number }>(sql`
    select
      (select coalesce(sum(p.amount_cents), 0)::bigint from payments p join checkout_sessions s on s.id = p.checkout_session_id
        where s.partner_id = ${partnerId} and p.status = 'succeeded') as collected,
      (select count(*)::int from orders where partner_id = ${partnerId} and (status <> 'SETTLED' or settlement_id is null)) as unsettled,
      (select coalesce(sum(amount_cents), 0)::bigint from commission_ledger where partner_id = ${partnerId} and source = 'sale') as ledger,
      (select count(*)::int from commission_ledger where partner_id = ${partnerId} and source = 'sale' and state <> 'paid_out') as ledger_open,
      (select coalesce(sum(amount_cents), 0)::bigint from payouts where partner_id = ${partnerId} and kind = 'commission') as paid_out`);
  const checkout = stated.find((row) => row.model === "non_mor");
  const checkoutGross = Number(checkout?.gross ?? 0);
  const payable = Number(checkout?.payable ?? 0);
  return [
    figure("settlement: statements / orders stated", `${run.statements.length} / ${stated.reduce((n, s) => n + s.orders, 0)}`, "-"),
    exactly("settlement: orders not settled into a statement", Number(money?.unsettled ?? -1), 0),
    exactly("settlement: payment models whose statement totals differ from their orders", totalsOff, 0),
    exactly("settlement: checkout gross minus payments collected (cents)", checkoutGross - Number(money?.collected ?? 0), 0),
    exactly("settlement: commission payable minus payouts, minus ledger (cents)", Math.abs(payable - Number(money?.paid_out ?? 0)) + Math.abs(payable - Number(money?.ledger ?? 0)), 0),
    exactly("settlement: sale commissions not paid out", Number(money?.ledger_open ?? -1), 0),
  ];
}
