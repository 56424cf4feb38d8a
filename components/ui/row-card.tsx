import type { LiHTMLAttributes, MouseEvent } from "react";
import { cn } from "./cn";

/** A list row's click handler: the row opens `id`, except when the click is on its own controls (links, buttons, times). */
export function rowClick<T>(id: T, onOpen: (id: T) => void) {
  return (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest("button, a, time")) return;
    onOpen(id);
  };
}

export type RowCardProps<T> = Omit<LiHTMLAttributes<HTMLLIElement>, "id" | "onClick"> & {
  /** What a click anywhere on the card (but its own links and buttons) opens. */
  rowId: T;
  onOpen: (id: T) => void;
  /** The row whose detail is open beside or below the list. */
  selected?: boolean;
};

/**
 * A list's row on a phone, where its table is hidden: one card per row, the whole
 * of which opens the row as the table row does. Its own link or button stays the
 * keyboard's way in; the card's click is a larger target for a finger.
 */
export function RowCard<T>({ rowId, onOpen, selected, className, ...props }: RowCardProps<T>) {
  return (
    <li
      onClick={rowClick(rowId, onOpen)}
      className={cn("cursor-pointer rounded-xl border border-line bg-surface p-3 shadow-card", selected && "border-brand/40 bg-brand-soft/40", className)}
      {...props}
    />
  );
}
