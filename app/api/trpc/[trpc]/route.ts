// GET|POST /api/trpc/* - the dashboard's tRPC transport
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { createTRPCContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/routers/_app";
import { logError } from "@/server/log";

function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: createTRPCContext,
    onError({ error, path }) {
      // Only unexpected failures are worth a log line; 4xx are the caller's business.
      if (error.code === "INTERNAL_SERVER_ERROR") logError(`trpc ${path ?? "?"}`, error.cause ?? error);
    },
  });
}

export { handler as GET, handler as POST };
