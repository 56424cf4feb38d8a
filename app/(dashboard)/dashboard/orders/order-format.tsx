import { formatMoney } from "@/app/checkout/format";
import { Badge, type BadgeTone } from "@/components/ui";
import type { OrderStatus } from "@/server/services/order-states";
import type { OrderChannel as SaleChannel } from "@/server/services/orders";
import { nextDay, validDay } from "@/components/dashboard/utc-day";

// Labels, badges and the filter mapping shared by the orders list, the order
// page and the CSV link.

// Type-only imports: the records below must name every status and channel the
// database knows, and no server code reaches the browser bundle.
export type { OrderStatus, SaleChannel };
export { formatMoney };

export const statusLabels: Record<OrderStatus, { label: string; tone: BadgeTone }> = {
  EXTERNALLY_PAID: { label: "Paid to you", tone: "info" },
  PAID: { label: "Paid", tone: "info" },
  MANUAL_REVIEW: { label: "In review", tone: "warning" },
  TRANSFER_IN_PROGRESS: { label: "Transferring", tone: "brand" },
  TRANSFER_COMPLETED: { label: "Transferred", tone: "success" },
  SETTLED: { label: "Settled", tone: "success" },
  REFUNDED: { label: "Refunded", tone: "neutral" },
  CANCELLED: { label: "Cancelled", tone: "neutral" },
};

export const channelLabels: Record<SaleChannel, string> = {
  mor: "Merchant of record",
  checkout: "Hosted checkout",
  marketplace: "Marketplace",
};

/** Table cells: short enough for a narrow column (the full label is the title). */
export const channelShortLabels: Record<SaleChannel, string> = {
  mor: "MoR",
  checkout: "Checkout",
  marketplace: "Marketplace",
};

export const orderStatuses = Object.keys(statusLabels) as OrderStatus[];
export const saleChannels = Object.keys(channelLabels) as SaleChannel[];

export function OrderStatusBadge({ status }: { status: string }) {
  const known = statusLabels[status as OrderStatus] ?? { label: status, tone: "neutral" as const };
  return (
    <Badge tone={known.tone} title={status} data-testid="order-status" data-status={status}>
      {known.label}
    </Badge>
  );
}

/** The URL's filters of the orders page. */
export const FILTER_KEYS = ["status", "channel", "q", "from", "to"] as const;
export type OrderFilterValues = Record<(typeof FILTER_KEYS)[number], string>;

/**
 * The page's filters as GET /orders (and the CSV export) take them. The page
 * shows an inclusive "to" day; the API's `to` is exclusive, so it gets the day after.
 */
export function orderQuery(filters: OrderFilterValues): { status?: string; channel?: string; q?: string; from?: string; to?: string } {
  const to = validDay(filters.to);
  return {
    status: (orderStatuses as readonly string[]).includes(filters.status) ? filters.status : undefined,
    channel: (saleChannels as readonly string[]).includes(filters.channel) ? filters.channel : undefined,
    q: filters.q.trim() || undefined,
    from: validDay(filters.from),
    to: to ? nextDay(to) : undefined,
  };
}

/** `/dashboard/export/orders?...` with the page's filters. */
export function exportHref(filters: OrderFilterValues): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(orderQuery(filters))) if (value) query.set(key, value);
  const text = query.toString();
  return `/dashboard/export/orders${text ? `?${text}` : ""}`;
}
