"use client";

import * as RadixTooltip from "@radix-ui/react-tooltip";
import { createContext, use, type ReactElement, type ReactNode } from "react";

// Lets a Tooltip outside any TooltipProvider supply its own instead of throwing.
const HasProvider = createContext(false);

export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <HasProvider value={true}>
      <RadixTooltip.Provider delayDuration={200}>{children}</RadixTooltip.Provider>
    </HasProvider>
  );
}

export interface TooltipProps {
  content: ReactNode;
  /** One element that can hold focus (button, link, or tabIndex={0}). */
  children: ReactElement;
  side?: "top" | "right" | "bottom" | "left";
}

export function Tooltip({ content, children, side = "top" }: TooltipProps) {
  const tooltip = (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content
          side={side}
          sideOffset={6}
          collisionPadding={8}
          className="z-50 max-w-xs rounded-md bg-ink px-2.5 py-1.5 text-xs leading-snug text-white shadow-raised"
        >
          {content}
          <RadixTooltip.Arrow className="fill-ink" />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
  return use(HasProvider) ? tooltip : <TooltipProvider>{tooltip}</TooltipProvider>;
}
