"use client";

import * as RadixToast from "@radix-ui/react-toast";
import { createContext, use, useCallback, useMemo, useRef, useState, type ReactNode } from "react";
import { cn } from "./cn";

export type ToastTone = "success" | "danger" | "info";

export interface ToastInput {
  title: string;
  description?: string;
  tone?: ToastTone;
}

interface ToastApi {
  toast(input: ToastInput): void;
}

const tones: Record<ToastTone, string> = {
  success: "border-success-ink/15 bg-success-soft text-success-ink",
  danger: "border-danger-ink/15 bg-danger-soft text-danger-ink",
  info: "border-info-ink/15 bg-info-soft text-info-ink",
};

const ToastContext = createContext<ToastApi | null>(null);

/** Wrap the app once: `<Toaster>{children}</Toaster>`. */
export function Toaster({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Array<ToastInput & { id: number }>>([]);
  const nextId = useRef(0);

  const toast = useCallback((input: ToastInput) => {
    const id = ++nextId.current;
    setItems((current) => [...current, { ...input, id }]);
  }, []);
  const api = useMemo(() => ({ toast }), [toast]);

  return (
    <ToastContext value={api}>
      <RadixToast.Provider duration={5000}>
        {children}
        {items.map(({ id, title, description, tone = "info" }) => (
          <RadixToast.Root
            key={id}
            // Errors interrupt (assertive); confirmations are announced politely.
            type={tone === "danger" ? "foreground" : "background"}
            onOpenChange={(open) => {
              if (!open) setItems((current) => current.filter((item) => item.id !== id));
            }}
            className={cn("flex items-start gap-3 rounded-lg border px-4 py-3 shadow-raised", tones[tone])}
          >
            <div className="min-w-0 flex-1">
              <RadixToast.Title className="text-sm font-semibold">{title}</RadixToast.Title>
              {description ? <RadixToast.Description className="mt-0.5 text-sm">{description}</RadixToast.Description> : null}
            </div>
            <RadixToast.Close
              aria-label="Dismiss"
              className="-mt-1 -mr-2 inline-flex size-7 shrink-0 items-center justify-center rounded-md text-lg leading-none opacity-80 hover:opacity-100"
            >
              <span aria-hidden="true">×</span>
            </RadixToast.Close>
          </RadixToast.Root>
        ))}
        <RadixToast.Viewport className="fixed right-0 bottom-0 z-50 flex w-full flex-col gap-2 p-4 sm:max-w-sm" />
      </RadixToast.Provider>
    </ToastContext>
  );
}

export function useToast(): ToastApi {
  const api = use(ToastContext);
  if (!api) throw new Error("useToast must be used inside <Toaster>.");
  return api;
}
