"use client";

import * as RadixDialog from "@radix-ui/react-dialog";
import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "./cn";
import { descriptionClasses, overlayClasses, panelClasses, titleClasses } from "./dialog-styles";

export const Dialog = RadixDialog.Root;
export const DialogTrigger = RadixDialog.Trigger;
export const DialogClose = RadixDialog.Close;

export interface DialogContentProps {
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
}

export function DialogContent({ title, description, children, className }: DialogContentProps) {
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className={overlayClasses} />
      <RadixDialog.Content className={cn(panelClasses, className)}>
        <RadixDialog.Title className={cn(titleClasses, "pr-8")}>{title}</RadixDialog.Title>
        {description ? (
          <RadixDialog.Description asChild>
            <div className={descriptionClasses}>{description}</div>
          </RadixDialog.Description>
        ) : null}
        <div className="mt-4">{children}</div>
        {/* Last in the DOM so opening focuses the first field, not the close button. */}
        <RadixDialog.Close
          aria-label="Close"
          className="absolute top-3 right-3 inline-flex size-8 items-center justify-center rounded-md text-xl leading-none text-faint transition-colors hover:bg-subtle hover:text-ink"
        >
          <span aria-hidden="true">×</span>
        </RadixDialog.Close>
      </RadixDialog.Content>
    </RadixDialog.Portal>
  );
}

/** Action row; stacks full-width on phones with the last (primary) action on top. */
export function DialogFooter({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)} {...props} />;
}
