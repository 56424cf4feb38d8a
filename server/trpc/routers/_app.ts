import { createCallerFactory, createTRPCRouter } from "../init";
import { accountRouter } from "./account";
import { adminRouter } from "./admin";
import { brokerageRouter } from "./brokerage";
import { eventsRouter } from "./events";
import { financeRouter } from "./finance";
import { homeRouter } from "./home";
import { keysRouter } from "./keys";
import { ordersRouter } from "./orders";
import { linksRouter } from "./links";
import { requestsRouter } from "./requests";
import { sandboxRouter } from "./sandbox";
import { teamRouter } from "./team";
import { webhooksRouter } from "./webhooks";

// The dashboard's tRPC API: one router per area, each procedure a few lines
// over the service functions the REST API and the operations CLI also call.

export const appRouter = createTRPCRouter({
  account: accountRouter,
  admin: adminRouter,
  keys: keysRouter,
  orders: ordersRouter,
  webhooks: webhooksRouter,
  events: eventsRouter,
  requests: requestsRouter,
  team: teamRouter,
  sandbox: sandboxRouter,
  links: linksRouter,
  brokerage: brokerageRouter,
  home: homeRouter,
  finance: financeRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller, for server components and tests. */
export const createCaller = createCallerFactory(appRouter);
