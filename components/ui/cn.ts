/**
 * Joins class names, dropping falsy parts. There is no tailwind-merge here, so a
 * caller's className is appended, not merged. Two utilities for the same
 * property (`hidden` vs a component's `inline-flex`) resolve by stylesheet
 * order, not by position here; use a variant (`max-sm:hidden`), which always
 * sorts later, or wrap the component.
 */
export function cn(...parts: Array<string | false | null | undefined>): string {
  return parts.filter(Boolean).join(" ");
}
