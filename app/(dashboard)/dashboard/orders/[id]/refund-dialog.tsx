"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/providers";
import { Button, ConfirmDialog, Input, Label, useToast } from "@/components/ui";
import { formatMoney } from "../order-format";
import type { OrderView } from "./order-detail";

// Refund of a merchant-of-record sale, by the rules of POST /refunds: full
// amount, only before the transfer starts, with a reason that goes on the
// timeline. The server decides; a refusal (e.g. the transfer started meanwhile)
// is shown in the dialog as it said it.

export function RefundButton({ order }: { order: OrderView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [reason, setReason] = useState("");
  const refund = useMutation(trpc.orders.refund.mutationOptions());
  const amount = formatMoney(order.salePriceCents, order.currency);

  return (
    <ConfirmDialog
      trigger={<Button variant="danger">Refund</Button>}
      title={`Refund ${amount} for ${order.domain}?`}
      description={
        <>
          The order becomes REFUNDED and {order.domain} goes back on the market. You collected this payment, so you repay
          your buyer yourself; the refund cancels what you would owe at settlement. Your integration receives an{" "}
          <span className="font-mono">order.refunded</span> event. This cannot be undone.
        </>
      }
      confirmLabel={`Refund ${amount}`}
      confirmDisabled={reason.trim() === ""}
      onOpenChange={(open) => (open ? undefined : setReason(""))}
      onConfirm={async () => {
        const result = await refund.mutateAsync({ orderId: order.id, reason: reason.trim() });
        toast({ title: "Refund recorded", description: `${order.domain}: ${formatMoney(result.amountCents, result.currency)} refunded.`, tone: "success" });
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.orders.get.queryKey({ id: order.id }) }),
          queryClient.invalidateQueries({ queryKey: trpc.orders.list.pathKey() }),
        ]);
      }}
    >
      <div className="space-y-1.5">
        <Label htmlFor="refund-reason">Reason (required)</Label>
        <Input
          id="refund-reason"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={500}
          placeholder="e.g. buyer cancelled within the cooling-off period"
          aria-describedby="refund-reason-hint"
          required
        />
        <p id="refund-reason-hint" className="text-xs text-faint">
          Recorded on the order&apos;s timeline and in the audit log.
        </p>
      </div>
    </ConfirmDialog>
  );
}
