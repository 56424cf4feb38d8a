import { z } from "zod";
import { eventTypes } from "@/server/webhooks/catalog";
import { eventCatalog } from "@/server/webhooks/catalog";
import {
  deliveryStats,
  enableEndpoint,
  getDeliveryOrThrow,
  listDeliveries,
  resendFailed,
  revealEndpointSecret,
  rollEndpointSecret,
  secretGraces,
  sendTestEvent,
  serializeConsoleEndpoint,
  setEndpointUrl,
  type SecretGrace,
} from "@/server/services/webhook-console";
import { disableWebhookEndpoint, findWebhookEndpoint, replayDelivery } from "@/server/services/webhooks";
import { createTRPCRouter, integrationMutation, integrationProcedure } from "../init";

// The webhook endpoint of the selected environment and its delivery log.

const isoDate = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

export const webhooksRouter = createTRPCRouter({
  /** webhooks.endpoint - the endpoint (null when none) with 24 h delivery counts */
  endpoint: integrationProcedure.query(async ({ ctx }) => {
    const row = await findWebhookEndpoint(ctx.db, ctx.owner);
    return row ? { ...serializeConsoleEndpoint(row), stats: await deliveryStats(ctx.db, ctx.owner) } : null;
  }),
  /** webhooks.catalog - event types with descriptions and samples */
  catalog: integrationProcedure.query(() => eventTypes.map((type) => ({ type, ...eventCatalog[type] }))),
  /** webhooks.setUrl - create the endpoint (secret generated) or change its URL */
  setUrl: integrationMutation
    .input(z.object({ url: z.string().trim().min(1, "Enter the URL events are sent to").max(2048) }))
    .mutation(({ ctx, input }) => setEndpointUrl(ctx.db, { ...ctx.owner, url: input.url }, ctx.actor)),
  /** webhooks.revealSecret - the signing secret, audited */
  revealSecret: integrationMutation.mutation(({ ctx }) => revealEndpointSecret(ctx.db, ctx.owner, ctx.actor)),
  /** webhooks.rollSecret - a new secret; deliveries carry both signatures during the grace */
  rollSecret: integrationMutation
    .input(z.object({ grace: z.enum(Object.keys(secretGraces) as [SecretGrace, ...SecretGrace[]]) }))
    .mutation(({ ctx, input }) => rollEndpointSecret(ctx.db, { ...ctx.owner, grace: input.grace }, ctx.actor)),
  /** webhooks.disable - stop deliveries */
  disable: integrationMutation.mutation(async ({ ctx }) => serializeConsoleEndpoint(await disableWebhookEndpoint(ctx.db, ctx.owner, ctx.actor))),
  /** webhooks.enable - turn back on, optionally resending what failed meanwhile */
  enable: integrationMutation
    .input(z.object({ resend: z.boolean() }))
    .mutation(({ ctx, input }) => enableEndpoint(ctx.db, { ...ctx.owner, resend: input.resend }, ctx.actor)),
  /** webhooks.sendTest - a test event of any catalog type */
  sendTest: integrationMutation
    .input(z.object({ type: z.enum(eventTypes) }))
    .mutation(({ ctx, input }) => sendTestEvent(ctx.db, { ...ctx.owner, type: input.type }, ctx.actor)),
  /** webhooks.deliveries - the delivery log, newest first */
  deliveries: integrationProcedure
    .input(
      z.object({
        status: z.enum(["pending", "delivering", "succeeded", "failed"]).optional(),
        type: z.string().max(64).optional(),
        eventId: z.string().max(64).optional(),
        from: isoDate.optional(),
        to: isoDate.optional(),
        cursor: z.string().max(200).optional(),
        limit: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(({ ctx, input }) => listDeliveries(ctx.db, { ...ctx.owner, ...input, before: input.cursor })),
  /** webhooks.delivery - one delivery with its attempts */
  delivery: integrationProcedure
    .input(z.object({ id: z.string().max(100) }))
    .query(({ ctx, input }) => getDeliveryOrThrow(ctx.db, { ...ctx.owner, deliveryId: input.id })),
  /** webhooks.resend - one delivery again, from the start of the retry schedule */
  resend: integrationMutation.input(z.object({ id: z.string().max(100) })).mutation(async ({ ctx, input }) => {
    const row = await replayDelivery(ctx.db, { deliveryId: input.id, owner: ctx.owner }, ctx.actor);
    return { id: row.id, status: row.status };
  }),
  /** webhooks.resendFailed - every failed delivery of a window (idempotent) */
  resendFailed: integrationMutation
    .input(z.object({ from: isoDate, to: isoDate }))
    .mutation(({ ctx, input }) => resendFailed(ctx.db, { ...ctx.owner, ...input }, ctx.actor)),
});
