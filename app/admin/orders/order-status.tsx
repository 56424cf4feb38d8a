import { Badge, type BadgeTone } from "@/components/ui";
import type { OrderStatus } from "@/server/services/order-states";

// Staff see the state machine's own names (they are what the CLI, the API and
// the audit log say); the tone says whether anything waits for them.

export const staffOrderStatuses: OrderStatus[] = [
  "MANUAL_REVIEW",
  "EXTERNALLY_PAID",
  "PAID",
  "TRANSFER_IN_PROGRESS",
  "TRANSFER_COMPLETED",
  "SETTLED",
  "REFUNDED",
  "CANCELLED",
];

const tones: Record<OrderStatus, BadgeTone> = {
  MANUAL_REVIEW: "warning",
  EXTERNALLY_PAID: "info",
  PAID: "info",
  TRANSFER_IN_PROGRESS: "brand",
  TRANSFER_COMPLETED: "success",
  SETTLED: "success",
  REFUNDED: "neutral",
  CANCELLED: "neutral",
};

export function StaffOrderStatus({ status }: { status: OrderStatus }) {
  return (
    <Badge tone={tones[status]} data-testid="order-status" data-status={status}>
      {status}
    </Badge>
  );
}
