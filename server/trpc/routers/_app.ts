import { createCallerFactory, createTRPCRouter } from "../init";
import { partnerRouter } from "./partner";

// The dashboard's tRPC API. Each domain gets its own router file (keys,
// webhooks, events, orders, admin...) mounted here.

export const appRouter = createTRPCRouter({
  partner: partnerRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller, for server components and tests. */
export const createCaller = createCallerFactory(appRouter);
