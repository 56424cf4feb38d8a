import { z } from "zod";
import { defineEndpoint } from "@/server/http/contract";
import { eventCatalog, eventTypes } from "@/server/webhooks/catalog";
import { timestamp } from "./common";

// The replayable event history: GET /events pages forward through the
// partner's events in the order they became visible.

const typeFilterPattern = /^[a-z]+(\.\*|\.[a-z_]+)$/;

export const eventSchema = z
  .object({
    id: z.string().describe("Event id (`evt_...`); pass it back as `after_id` to continue after it."),
    type: z.enum(eventTypes),
    created_at: timestamp,
    partner_id: z.string(),
    data: z.record(z.string(), z.unknown()).describe("For order events, `order` holds the order; for brokerage events, `case`."),
  })
  .meta({
    id: "Event",
    description: `Event types: ${eventTypes.map((t) => `\`${t}\` (${eventCatalog[t].description})`).join("; ")}`,
  });

export const listEventsEndpoint = defineEndpoint({
  operationId: "listEvents",
  method: "GET",
  path: "/api/partner/v1/events",
  tag: "Webhooks and events",
  summary: "Event history, in order, from a cursor",
  description:
    "Returns the credential's environment's events in ascending order, strictly after `after_id`. The order is the " +
    "order in which events became visible, so paging with `next_cursor` never skips an event that commits later and " +
    "never repeats one. `next_cursor` is the id of the last event returned, or `after_id` itself when nothing new " +
    "has happened, so a client polls with it indefinitely; `has_more` says whether another page is ready now. " +
    "Events are kept for 400 days (their delivery attempts for 30).",
  scopes: ["webhook"],
  rateClass: "reporting",
  query: z.object({
    after_id: z.string().min(1).max(64).optional().describe("Return events after this event id (exclusive)."),
    limit: z.coerce.number().int().min(1).max(200).default(50).describe("Page size, 1 to 200 (default 50)."),
    type: z
      .string()
      .optional()
      .transform((v) => (v ? v.split(",").map((t) => t.trim()) : undefined))
      .pipe(z.array(z.string().regex(typeFilterPattern, "a type such as order.recorded or a family such as order.*")).max(20).optional())
      .describe("Comma-separated event types or families (`order.*`, `brokerage.*`)."),
  }),
  response: z.object({
    events: z.array(eventSchema),
    next_cursor: z.string().nullable(),
    has_more: z.boolean(),
  }),
});

export const eventContracts = [listEventsEndpoint];
