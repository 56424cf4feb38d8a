import { z } from "zod";
import type { OrderAction } from "@/server/services/order-states";
import { transitionOrder } from "@/server/services/order-states";
import { getOrderByIdOrThrow, serializeOrderWithTimeline } from "@/server/services/orders";
import { refundOrder } from "@/server/services/refunds";
import { defineCommand, type AdminContext } from "./admin-commands";
import { flag } from "./args";

// order:* of the operations CLI: staff moves through the order state machine.
// Each prints the order with its timeline; an illegal move exits 1 with
// `conflict`, an unknown order with `not_found`.

async function move(ctx: AdminContext, action: OrderAction, note?: string) {
  const db = await ctx.db();
  const orderId = ctx.args[0]!;
  await transitionOrder(db, { orderId, action, actor: ctx.actor, note });
  return serializeOrderWithTimeline(await getOrderByIdOrThrow(db, orderId));
}

const note = z.strictObject({ note: flag.text("note").optional() });

function moveCommand(action: OrderAction, summary: string) {
  return defineCommand({
    summary,
    usage: "[--note TEXT]",
    args: ["ORDER_ID"],
    flags: note,
    run: (ctx, f) => move(ctx, action, f.note),
  });
}

export const orderCommands = {
  "order:clear-review": moveCommand("clear_review", "Clear a held order (MANUAL_REVIEW -> its paid state); emits order.manual_review_cleared"),
  "order:start-transfer": moveCommand("start_transfer", "Start pushing the domain (-> TRANSFER_IN_PROGRESS); emits order.transfer_started"),
  "order:complete-transfer": moveCommand(
    "complete_transfer",
    "Confirm delivery to the partner's registrar (-> TRANSFER_COMPLETED, settlement clock starts)",
  ),
  "order:cancel": moveCommand("cancel", "Cancel an order before its transfer completes (-> CANCELLED, domain relisted); emits order.refunded. A hosted-checkout sale whose payment the marketplace holds is refused: refund it instead"),
  "order:refund": defineCommand({
    summary: "Refund an order before its transfer completes (-> REFUNDED, domain relisted); emits order.refunded",
    usage: "[--reason TEXT]",
    args: ["ORDER_ID"],
    flags: z.strictObject({ reason: flag.text("reason").optional() }),
    async run(ctx, f) {
      const result = await refundOrder(await ctx.db(), { orderId: ctx.args[0]!, reason: f.reason, actor: ctx.actor });
      return serializeOrderWithTimeline(result.order);
    },
  }),
};
