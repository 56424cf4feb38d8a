import { z } from "zod";
import { getRequestOrThrow, listRequests } from "@/server/services/request-log";
import { createTRPCRouter, integrationProcedure } from "../init";

// The request log and, for sandbox, the signature debugger.

const isoDate = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

export const requestsRouter = createTRPCRouter({
  /** requests.list - newest first, filtered by status, error code, key and path */
  list: integrationProcedure
    .input(
      z.object({
        status: z.string().regex(/^([2-5]xx|[1-5]\d\d)$/, "a status such as 401 or 4xx").optional(),
        errorCode: z.string().max(64).optional(),
        keyId: z.string().max(64).optional(),
        path: z.string().max(300).optional(),
        from: isoDate.optional(),
        to: isoDate.optional(),
        cursor: z.number().int().positive().optional(),
        limit: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(({ ctx, input }) => listRequests(ctx.db, { ...ctx.owner, ...input, before: input.cursor })),
  /** requests.get - one request, with the debugger's findings in sandbox */
  get: integrationProcedure
    .input(z.object({ id: z.number().int().positive() }))
    .query(({ ctx, input }) => getRequestOrThrow(ctx.db, { ...ctx.owner, id: input.id })),
});
