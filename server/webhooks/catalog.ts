// The event catalog: every type the service emits, what it means and a sample
// payload (used by the OpenAPI document and the dashboard's event browser).

export const eventTypes = [
  "order.recorded",
  "order.paid",
  "order.manual_review_cleared",
  "order.transfer_started",
  "order.transfer_completed",
  "order.settled",
  "order.refunded",
  "order.disputed",
  "order.dispute_won",
  "order.refund_failed",
  "brokerage.case_completed",
  "payout.paid",
  "webhook_endpoint.disabled",
] as const;

export type EventType = (typeof eventTypes)[number];

const sampleOrder = {
  public_id: "ord_0351K0hP90VyOYac6ePQRx",
  domain: "bestlawyerhub.com",
  status: "EXTERNALLY_PAID",
  sale_price_cents: 250000,
  currency: "USD",
};

export const eventCatalog: Record<EventType, { description: string; sample: Record<string, unknown> }> = {
  "order.recorded": {
    description: "A partner-collected sale was recorded: EXTERNALLY_PAID, or MANUAL_REVIEW when held for review.",
    sample: { order: sampleOrder },
  },
  "order.paid": {
    description: "A buyer paid on the partner's hosted checkout (PAID). Not in the spec's list; the non-MoR twin of order.recorded.",
    sample: { order: { ...sampleOrder, status: "PAID" } },
  },
  "order.manual_review_cleared": {
    description: "A held order was cleared; transfer proceeds.",
    sample: { order: { ...sampleOrder, status: "EXTERNALLY_PAID" } },
  },
  "order.transfer_started": {
    description: "The domain push started (TRANSFER_IN_PROGRESS).",
    sample: { order: { ...sampleOrder, status: "TRANSFER_IN_PROGRESS" } },
  },
  "order.transfer_completed": {
    description: "The domain reached the partner's registrar (TRANSFER_COMPLETED); the settlement clock starts.",
    sample: { order: { ...sampleOrder, status: "TRANSFER_COMPLETED" } },
  },
  "order.settled": { description: "The settlement period closed and the order is reconciled (SETTLED).", sample: { order: { ...sampleOrder, status: "SETTLED" } } },
  "order.refunded": {
    description: "The order was refunded (REFUNDED) or cancelled (CANCELLED); `data.order.status` says which.",
    sample: { order: { ...sampleOrder, status: "REFUNDED" } },
  },
  "order.disputed": {
    description:
      "The buyer's bank disputed a hosted-checkout payment (a chargeback): the order is held in MANUAL_REVIEW and its commission is held until the dispute closes. A lost dispute then emits order.refunded (commission reversed).",
    sample: { order: { ...sampleOrder, status: "MANUAL_REVIEW" } },
  },
  "order.dispute_won": {
    description: "A dispute closed in the marketplace's favour: the order is PAID again and its commission released.",
    sample: { order: { ...sampleOrder, status: "PAID" } },
  },
  "order.refund_failed": {
    description:
      "The payment processor could not complete the refund of a hosted-checkout sale after accepting it: the order is back in MANUAL_REVIEW (the note says why) until staff resolve it.",
    sample: { order: { ...sampleOrder, status: "MANUAL_REVIEW" } },
  },
  "brokerage.case_completed": {
    description: "A brokerage case closed with a deal.",
    sample: {
      case: {
        case_id: "bc_0351K0hP90VyOYac6ePQRx",
        domain: "pizza.com",
        status: "COMPLETED",
        final_price_cents: 1500000,
        currency: "USD",
        partner_share_cents: 60000,
      },
    },
  },
  "payout.paid": {
    description:
      "Staff recorded that a live payout was sent (`status` pending -> paid, with the bank or processor reference). " +
      "Sandbox payouts are paid when written and send no event.",
    sample: {
      payout: {
        id: "po_0351K0hP90VyOYac6ePQRx",
        kind: "commission",
        amount_cents: 125000,
        currency: "USD",
        status: "paid",
        reference: "SEPA-2026-11-0042",
        paid_at: "2026-12-02T09:30:00.000Z",
      },
    },
  },
  "webhook_endpoint.disabled": {
    description:
      "The webhook endpoint was disabled because every delivery attempt failed for 3 days. It stays in the event " +
      "history (it cannot reach the endpoint it is about); re-enable the endpoint in the dashboard, which offers to resend what failed.",
    sample: {
      endpoint: {
        url: "https://partner.example/webhooks",
        disabled_at: "2026-11-25T06:00:00.000Z",
        failing_since: "2026-11-22T05:59:12.000Z",
        reason: "every delivery attempt failed for 3 days",
      },
    },
  },
};
