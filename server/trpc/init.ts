import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError } from "zod";
import { getDb, type Database } from "@/db/client";
import { can, refusal, type PartnerPermission } from "@/server/auth/partner-roles";
import { cookies } from "next/headers";
import type { Environment } from "@/db/schema";
import { ENVIRONMENT_COOKIE, environmentFrom } from "@/server/auth/environment";
import { getSessionUser, type SessionUser } from "@/server/auth/session";
import type { Actor } from "@/server/services/partners";
import { AppError, errorCodes, isAppError, validationError, type ErrorCode } from "@/server/errors";

// tRPC for the dashboard. Procedures call the same services as the partner REST
// API; services throw AppError, and the middleware below maps it once to a
// TRPCError whose code comes from errorCodes[code].trpc. The AppError code stays
// in the error shape (`data.code`) so the UI can branch on it like REST clients do.
// No transformer: outputs are plain JSON (dates as ISO strings), as in REST.

export interface TRPCContext {
  db: Database;
  user: SessionUser | null;
  /** The dashboard's sandbox/live switch; every partner query is scoped to it. */
  environment: Environment;
}

export async function createTRPCContext(): Promise<TRPCContext> {
  const [user, jar] = await Promise.all([getSessionUser(), cookies()]);
  return { db: getDb(), user, environment: environmentFrom(jar.get(ENVIRONMENT_COOKIE)?.value) };
}

const trpcToAppCode: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
  BAD_REQUEST: "validation_error",
  PARSE_ERROR: "validation_error",
  UNAUTHORIZED: "unauthorized",
  FORBIDDEN: "forbidden",
  NOT_FOUND: "not_found",
  METHOD_NOT_SUPPORTED: "method_not_allowed",
  CONFLICT: "conflict",
  PAYLOAD_TOO_LARGE: "payload_too_large",
  UNPROCESSABLE_CONTENT: "validation_error",
  TOO_MANY_REQUESTS: "rate_limited",
};

const t = initTRPC.context<TRPCContext>().create({
  errorFormatter({ shape, error }) {
    const app = isAppError(error.cause) ? error.cause : undefined;
    const zod = error.cause instanceof ZodError ? error.cause : undefined;
    const details = app?.details ?? (zod ? validationError(zod.issues).details : undefined);
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    return {
      ...shape,
      // Internal messages can carry SQL or stack details; the log has them.
      message: internal ? "Something went wrong on our side. Please try again." : shape.message,
      data: {
        ...shape.data,
        stack: undefined,
        code: app?.code ?? trpcToAppCode[error.code] ?? "internal_error",
        details: details ?? null,
      },
    };
  },
});

const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isAppError(result.error.cause)) {
    const cause = result.error.cause;
    return { ...result, error: new TRPCError({ code: errorCodes[cause.code].trpc, message: cause.message, cause }) };
  }
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(mapAppErrors);

export const signedInProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new AppError("unauthorized", "Sign in to continue.");
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/**
 * A partner's staff: ctx.partnerId and ctx.environment are what every query
 * must filter by (`ctx.owner` holds both); ctx.actor is who the audit log names.
 */
export const partnerProcedure = signedInProcedure.use(({ ctx, next }) => {
  const { partnerId, role } = ctx.user;
  if (role !== "partner" || !partnerId) throw new AppError("forbidden", "This page is for partner accounts.");
  const actor: Actor = { type: "partner", id: ctx.user.id };
  return next({ ctx: { ...ctx, partnerId, owner: { partnerId, environment: ctx.environment }, actor } });
});

/** A procedure open to the roles holding `permission` (server/auth/partner-roles.ts). */
function partnerRoleProcedure(permission: PartnerPermission) {
  return partnerProcedure.use(({ ctx, next }) => {
    if (!can(ctx.user.partnerRole, permission)) throw new AppError("forbidden", refusal(permission));
    return next({ ctx });
  });
}

/** Money changes (refunds, links, cases): owners, developers, finance. tRPC sends mutations as POST only. */
export const partnerMutation = partnerRoleProcedure("changeMoney");
/** Keys, webhooks, events, request log: every role but finance reads them. */
export const integrationProcedure = partnerRoleProcedure("readIntegration");
/** Changes to keys, webhooks and the sandbox: owners and developers. */
export const integrationMutation = partnerRoleProcedure("changeIntegration");
/** The team, roles and the audit log: owners. */
export const ownerProcedure = partnerRoleProcedure("manageTeam");

export const adminProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== "admin") throw new AppError("forbidden", "Administrators only.");
  return next({ ctx });
});
