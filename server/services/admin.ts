import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

// What staff see first in the admin console: the queues that wait for them.

export async function getAdminOverview(db: Db) {
  const [row] = await db.execute<{
    partners: number;
    live_partners: number;
    pending_access: number;
    manual_review: number;
    open_cases: number;
    failing_endpoints: number;
    payouts_to_send: number;
    suspended: number;
  }>(sql`
    select
      (select count(*)::int from partners) as partners,
      (select count(*)::int from partners where live_approved_at is not null) as live_partners,
      (select count(*)::int from production_access_requests where status = 'pending') as pending_access,
      (select count(*)::int from orders where status = 'MANUAL_REVIEW') as manual_review,
      (select count(*)::int from brokerage_cases where status in ('OPEN', 'RESEARCHING', 'NEGOTIATING')) as open_cases,
      (select count(*)::int from webhook_endpoints where failing_since is not null or disabled_at is not null) as failing_endpoints,
      (select count(*)::int from payouts where status = 'pending') as payouts_to_send,
      (select count(*)::int from partners where suspended_at is not null) as suspended`);
  return {
    partners: row?.partners ?? 0,
    livePartners: row?.live_partners ?? 0,
    pendingAccessRequests: row?.pending_access ?? 0,
    ordersInManualReview: row?.manual_review ?? 0,
    openBrokerageCases: row?.open_cases ?? 0,
    failingWebhookEndpoints: row?.failing_endpoints ?? 0,
    payoutsToSend: row?.payouts_to_send ?? 0,
    suspendedPartners: row?.suspended ?? 0,
  };
}
