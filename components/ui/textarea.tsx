import type { TextareaHTMLAttributes } from "react";
import { cn } from "./cn";
import { inputClasses } from "./input";

/** A multi-line input with the input look (lists, notes). */
export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cn(inputClasses, "h-auto min-h-20 py-2 font-mono text-xs leading-relaxed", className)} {...props} />;
}
