"use client";

import { useEffect, useRef, useState } from "react";
import { buttonClasses } from "./button";
import { cn } from "./cn";

export interface CopyButtonProps {
  value: string;
  /** Accessible name (and visible text at size "sm"). */
  label?: string;
  className?: string;
  size?: "sm" | "icon";
}

type Status = "idle" | "copied" | "failed";

async function writeClipboard(value: string): Promise<boolean> {
  try {
    // navigator.clipboard is undefined on plain-http origins.
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(value);
      return true;
    }
  } catch {
    // Permission denied: fall through to the legacy path.
  }
  const previousFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement("textarea");
  area.value = value;
  area.readOnly = true;
  area.tabIndex = -1;
  area.setAttribute("aria-hidden", "true");
  area.style.cssText = "position:fixed;top:0;left:0;opacity:0;pointer-events:none";
  document.body.append(area);
  area.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
    previousFocus?.focus(); // select() moved focus to the textarea
  }
}

function CopyIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" className="size-4">
      <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
      <path d="M10.5 3.5v-.5A1.5 1.5 0 0 0 9 1.5H4A1.5 1.5 0 0 0 2.5 3v5A1.5 1.5 0 0 0 4 9.5h.5" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="2" className="size-4">
      <path d="M3 8.5l3 3 7-7" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function CopyButton({ value, label = "Copy", className, size = "icon" }: CopyButtonProps) {
  const [status, setStatus] = useState<Status>("idle");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    const ok = await writeClipboard(value);
    setStatus(ok ? "copied" : "failed");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setStatus("idle"), 2000);
  }

  const message = status === "copied" ? "Copied" : status === "failed" ? "Copy failed" : "";
  const icon = status === "copied" ? <CheckIcon /> : <CopyIcon />;

  return (
    <>
      {size === "icon" ? (
        <button
          type="button"
          onClick={copy}
          aria-label={label}
          data-testid="copy-button"
          className={cn(
            "inline-flex size-8 shrink-0 items-center justify-center rounded-md transition-colors hover:bg-subtle",
            status === "copied" ? "text-success-ink" : "text-muted hover:text-ink",
            className,
          )}
        >
          {icon}
        </button>
      ) : (
        <button
          type="button"
          onClick={copy}
          data-testid="copy-button"
          className={buttonClasses({ variant: "secondary", size: "sm", className })}
        >
          {icon}
          {message || label}
        </button>
      )}
      <span aria-live="polite" className="sr-only">
        {message}
      </span>
    </>
  );
}
