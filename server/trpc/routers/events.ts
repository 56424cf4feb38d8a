import { z } from "zod";
import { getEventOrThrow, listEvents, serializeEvent } from "@/server/services/events";
import { listDeliveries } from "@/server/services/webhook-console";
import { createTRPCRouter, integrationProcedure } from "../init";

// The event explorer: the same events GET /events returns, newest first.

const isoDate = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

export const eventsRouter = createTRPCRouter({
  /** events.list - filter by type (or family such as order.*) and date */
  list: integrationProcedure
    .input(
      z.object({
        type: z.string().max(64).optional(),
        from: isoDate.optional(),
        to: isoDate.optional(),
        cursor: z.string().max(64).optional(),
        limit: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(async ({ ctx, input }) => {
      const page = await listEvents(ctx.db, {
        ...ctx.owner,
        types: input.type ? [input.type] : undefined,
        from: input.from,
        to: input.to,
        afterId: input.cursor,
        limit: input.limit,
        direction: "desc",
      });
      return { events: page.events.map(serializeEvent), nextCursor: page.hasMore ? page.nextCursor : null };
    }),
  /** events.get - one event's JSON and the deliveries that carried it */
  get: integrationProcedure.input(z.object({ id: z.string().max(64) })).query(async ({ ctx, input }) => {
    const event = await getEventOrThrow(ctx.db, { ...ctx.owner, eventId: input.id });
    const deliveries = await listDeliveries(ctx.db, { ...ctx.owner, eventId: event.id, limit: 20 });
    return { event: serializeEvent(event), deliveries: deliveries.deliveries };
  }),
});
