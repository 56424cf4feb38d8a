"use client";

import { Label } from "./input";
import { Textarea } from "./textarea";

/** The required reason of a consequential action, inside its confirm dialog; `who` says where the reason goes. */
export function ReasonField({
  id,
  value,
  onChange,
  who = "in the audit log",
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  who?: string;
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>Reason (required; {who})</Label>
      <Textarea id={id} rows={2} value={value} onChange={(event) => onChange(event.target.value)} className="font-sans text-sm" />
    </div>
  );
}

/** A reason long enough to mean something (the services refuse shorter). */
export const reasonReady = (value: string) => value.trim().length >= 3;
