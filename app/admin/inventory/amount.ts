import { currencyDigits } from "@/app/checkout/format";

// Staff type prices as amounts ("1250" or "1,250.50"); the services take whole
// minor units. Parsed as text, never through a float.

/** "1,250.5" in USD -> 125050; null when it is not an amount with at most the currency's decimals. */
export function parseAmount(text: string, currency: string): number | null {
  const digits = currencyDigits(currency.toUpperCase());
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.trim().replace(/[,\s]/g, ""));
  if (!match) return null;
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  const cents = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
  return Number.isSafeInteger(cents) ? cents : null;
}

/** 125050 in USD -> "1250.50", for a form's starting value. */
export function amountText(cents: number, currency: string): string {
  const digits = currencyDigits(currency.toUpperCase());
  if (digits === 0) return String(cents);
  const scale = 10 ** digits;
  return `${Math.floor(cents / scale)}.${String(cents % scale).padStart(digits, "0")}`;
}
