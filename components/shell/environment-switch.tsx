"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import type { Environment } from "@/db/schema";
import { setEnvironmentAction } from "@/server/auth/environment-action";
import { cn } from "@/components/ui/cn";

/**
 * Sandbox/live toggle (Stripe's test mode). A form of two submit buttons, so it
 * works before hydration; with JavaScript it also drops every cached query,
 * since all of them belong to the previous environment.
 */
export function EnvironmentSwitch({ environment }: { environment: Environment }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <form
      action={(form) =>
        startTransition(async () => {
          await setEnvironmentAction(form);
          queryClient.removeQueries();
          router.refresh();
        })
      }
      className="flex rounded-md border border-line-strong bg-subtle p-0.5 text-xs font-medium"
      aria-label="Environment"
      data-testid="environment-switch"
    >
      {(["sandbox", "live"] as const).map((value) => (
        <button
          key={value}
          type="submit"
          name="environment"
          value={value}
          aria-pressed={environment === value}
          disabled={pending}
          className={cn(
            "rounded px-2.5 py-1 capitalize transition-colors",
            environment === value
              ? value === "sandbox"
                ? "bg-warning-soft text-warning-ink shadow-card"
                : "bg-surface text-ink shadow-card"
              : "text-muted hover:text-ink",
          )}
        >
          {value}
        </button>
      ))}
    </form>
  );
}
