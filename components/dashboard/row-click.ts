import type { MouseEvent } from "react";

/** A list row's click handler: the row opens `id`, except when the click is on its own controls (links, buttons, times). */
export function rowClick<T>(id: T, onSelect: (id: T) => void) {
  return (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest("button, a, time")) return;
    onSelect(id);
  };
}
