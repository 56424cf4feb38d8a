import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { Badge, type BadgeTone } from "@/components/ui";

// Labels and small formatters shared by the Webhooks and Events pages.

export type DeliveryStatus = "pending" | "delivering" | "succeeded" | "failed";

export const deliveryStatuses: Record<DeliveryStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: "Pending", tone: "warning" },
  delivering: { label: "Delivering", tone: "info" },
  succeeded: { label: "Succeeded", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
};

export function DeliveryStatusBadge({ status }: { status: string }) {
  const known = deliveryStatuses[status as DeliveryStatus] ?? { label: status, tone: "neutral" as const };
  return (
    <Badge tone={known.tone} data-testid="delivery-status">
      {known.label}
    </Badge>
  );
}

/** An HTTP status as a badge: 2xx green, anything else red; "—" when no response came. */
export function ResponseStatus({ status, error }: { status: number | null; error?: string | null }) {
  if (status == null) {
    return error ? (
      <Badge tone="danger" title={error}>
        No response
      </Badge>
    ) : (
      <span className="text-faint">—</span>
    );
  }
  return (
    <Badge tone={status >= 200 && status < 300 ? "success" : "danger"} data-testid="response-status">
      {status}
    </Badge>
  );
}

export function isInFlight(status: string): boolean {
  return status === "pending" || status === "delivering";
}

export const formatLatency = (ms: number | null) => (ms == null ? "—" : `${new Intl.NumberFormat("en-US").format(ms)} ms`);

/**
 * A date input's value (YYYY-MM-DD, the viewer's own calendar day) as the ISO
 * instant the API filters by: the day's first or last millisecond.
 */
export function dayToIso(day: string, edge: "start" | "end"): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T${edge === "start" ? "00:00:00.000" : "23:59:59.999"}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A Date as a datetime-local input's value, in the viewer's time zone. */
export function toLocalInput(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

export function localInputToIso(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** One line about an event's data: the order's domain and status, the case, or the endpoint. */
export function eventSummary(data: unknown): string {
  if (!isObject(data)) return "";
  const parts: string[] = [];
  const order = data.order;
  const brokerageCase = data.case;
  const endpoint = data.endpoint;
  if (isObject(order)) parts.push([order.domain, order.status].filter(Boolean).join(" · "));
  else if (isObject(brokerageCase)) parts.push([brokerageCase.domain, brokerageCase.status].filter(Boolean).join(" · "));
  else if (isObject(endpoint)) parts.push(`${String(endpoint.url ?? "endpoint")} disabled`);
  if (data.test === true) parts.push("(test)");
  return parts.join(" ");
}

export const pluralize = (n: number, one: string, many = `${one}s`) => `${new Intl.NumberFormat("en-US").format(n)} ${n === 1 ? one : many}`;

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type ConsoleEndpoint = NonNullable<RouterOutputs["webhooks"]["endpoint"]>;
export type CatalogEntry = RouterOutputs["webhooks"]["catalog"][number];
export type DeliveryRow = RouterOutputs["webhooks"]["deliveries"]["deliveries"][number];
