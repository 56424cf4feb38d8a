"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";

// Filters and the selected item of a dashboard view live in the query string,
// so a view can be bookmarked and shared. Empty values are removed from the URL.

export function useUrlState<K extends string>(keys: readonly K[]) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  // Callers pass a constant list of keys (a module-level array).
  const values = useMemo(() => Object.fromEntries(keys.map((key) => [key, params.get(key) ?? ""])) as Record<K, string>, [params, keys]);
  const set = useCallback(
    (changes: Partial<Record<K, string | null | undefined>>) => {
      const next = new URLSearchParams(params.toString());
      for (const [key, value] of Object.entries(changes) as [K, string | null | undefined][]) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      const query = next.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [params, pathname, router],
  );
  return [values, set] as const;
}
