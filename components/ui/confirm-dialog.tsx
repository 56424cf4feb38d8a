"use client";

import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useState, type ReactElement, type ReactNode } from "react";
import { buttonClasses } from "./button";
import { DialogFooter } from "./dialog";
import { descriptionClasses, overlayClasses, panelClasses, titleClasses } from "./dialog-styles";

export interface ConfirmDialogProps {
  trigger: ReactElement;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: "danger" | "primary";
  onConfirm: () => unknown | Promise<unknown>;
  /** Fields the confirmation needs (e.g. a required reason), shown under the description. */
  children?: ReactNode;
  /** The confirm button stays inert (e.g. until a required field is filled). */
  confirmDisabled?: boolean;
  /** Called when the dialog opens or closes (to reset fields). */
  onOpenChange?: (open: boolean) => void;
}

export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel,
  cancelLabel = "Cancel",
  tone = "danger",
  onConfirm,
  children,
  confirmDisabled = false,
  onOpenChange,
}: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function handleOpenChange(next: boolean) {
    if (pending) return; // Escape or Cancel must not drop a request mid-flight.
    setOpen(next);
    if (next) setError(null);
    onOpenChange?.(next);
  }

  async function confirm() {
    if (pending || confirmDisabled) return;
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      setOpen(false);
      onOpenChange?.(false);
    } catch (err) {
      setError(err instanceof Error ? err.message : "Something went wrong. Please try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <AlertDialog.Root open={open} onOpenChange={handleOpenChange}>
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClasses} />
        <AlertDialog.Content className={panelClasses}>
          <AlertDialog.Title className={titleClasses}>{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className={descriptionClasses}>{description}</div>
          </AlertDialog.Description>
          {children ? <div className="mt-4">{children}</div> : null}
          {error ? (
            <p role="alert" className="mt-4 text-sm font-medium text-danger-ink">
              {error}
            </p>
          ) : null}
          <DialogFooter>
            {/* aria-disabled rather than disabled keeps keyboard focus on the buttons while pending. */}
            <AlertDialog.Cancel aria-disabled={pending || undefined} className={buttonClasses({ variant: "secondary" })}>
              {cancelLabel}
            </AlertDialog.Cancel>
            <button
              type="button"
              aria-disabled={pending || confirmDisabled || undefined}
              onClick={confirm}
              className={buttonClasses({ variant: tone })}
            >
              {pending ? "Working…" : confirmLabel}
            </button>
          </DialogFooter>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
