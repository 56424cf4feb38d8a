"use client";

import { isServer, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { Toaster } from "@/components/ui/toast";
import { TooltipProvider } from "@/components/ui/tooltip";

// Client wiring for the dashboard's tRPC API (TanStack React Query integration).
// Components call `const trpc = useTRPC()` and pass `trpc.x.y.queryOptions()` to useQuery.

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Dashboard data changes rarely within a minute; avoids refetch storms on focus.
        staleTime: 30_000,
        // 4xx answers (signed out, forbidden, not found) will not fix themselves.
        retry: (failures, error) => failures < 2 && !isClientError(error),
      },
    },
  });
}

function isClientError(error: unknown): boolean {
  const status = (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
  return typeof status === "number" && status >= 400 && status < 500;
}

let browserQueryClient: QueryClient | undefined;

/**
 * One client per browser tab, a fresh one per server render: sharing a server
 * instance would leak one user's cached data into another's page.
 */
function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

export function Providers({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: "/api/trpc" })],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <TooltipProvider>
          <Toaster>{children}</Toaster>
        </TooltipProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
