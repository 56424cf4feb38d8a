"use client";

import * as RadixMenu from "@radix-ui/react-dropdown-menu";
import type { ComponentProps } from "react";
import { cn } from "./cn";

export const DropdownMenu = RadixMenu.Root;
export const DropdownMenuTrigger = RadixMenu.Trigger;

export function DropdownMenuContent({
  className,
  align = "end",
  sideOffset = 4,
  ...props
}: ComponentProps<typeof RadixMenu.Content>) {
  return (
    <RadixMenu.Portal>
      <RadixMenu.Content
        align={align}
        sideOffset={sideOffset}
        collisionPadding={8}
        className={cn("z-50 min-w-44 rounded-lg border border-line bg-surface p-1 shadow-raised", className)}
        {...props}
      />
    </RadixMenu.Portal>
  );
}

export interface DropdownMenuItemProps extends ComponentProps<typeof RadixMenu.Item> {
  tone?: "danger";
}

export function DropdownMenuItem({ className, tone, ...props }: DropdownMenuItemProps) {
  return (
    <RadixMenu.Item
      className={cn(
        "flex cursor-default items-center gap-2 rounded-md px-2.5 py-1.5 text-sm select-none",
        "data-[disabled]:pointer-events-none data-[disabled]:opacity-50",
        tone === "danger" ? "text-danger-ink data-[highlighted]:bg-danger-soft" : "text-ink data-[highlighted]:bg-subtle",
        className,
      )}
      {...props}
    />
  );
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof RadixMenu.Separator>) {
  return <RadixMenu.Separator className={cn("-mx-1 my-1 h-px bg-line", className)} {...props} />;
}
