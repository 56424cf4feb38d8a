"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef } from "react";

// Filters and the selected item of a dashboard view live in the query string,
// so a view can be bookmarked and shared. Empty values are removed from the URL.
//
// router.replace is a transition: the search params a render sees lag behind
// the URL just asked for. Changes made before it lands (two date fields filled
// in quick succession) build on the query string last asked for, not on the
// render's, so none of them is lost.

export function useUrlState<K extends string>(keys: readonly K[]) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  // Query strings asked for and not yet seen, oldest first. A URL that is not one
  // of them (back button, a link) means someone else navigated: start afresh.
  const requested = useRef<string[]>([]);
  useEffect(() => {
    const at = requested.current.indexOf(params.toString());
    requested.current = at === -1 ? [] : requested.current.slice(at + 1);
  }, [params]);
  // Callers pass a constant list of keys (a module-level array).
  const values = useMemo(() => Object.fromEntries(keys.map((key) => [key, params.get(key) ?? ""])) as Record<K, string>, [params, keys]);
  const set = useCallback(
    (changes: Partial<Record<K, string | null | undefined>>) => {
      const next = new URLSearchParams(requested.current.at(-1) ?? params.toString());
      for (const [key, value] of Object.entries(changes) as [K, string | null | undefined][]) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      const query = next.toString();
      requested.current = [...requested.current, query];
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [params, pathname, router],
  );
  return [values, set] as const;
}
