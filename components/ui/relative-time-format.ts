const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// Fixed locale and UTC so server and browser print the same date.
const dateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** "just now", "5 min ago", "3 h ago", "2 days ago", "in 5 min"; a date ("Nov 3, 2026") beyond 30 days. */
export function formatRelative(date: Date, now: Date): string {
  const diff = now.getTime() - date.getTime();
  const abs = Math.abs(diff);
  if (abs < 45_000) return "just now";
  if (abs >= 30 * DAY) return dateFormat.format(date);
  let amount: string;
  if (abs < HOUR) amount = `${Math.max(1, Math.floor(abs / MINUTE))} min`;
  else if (abs < DAY) amount = `${Math.floor(abs / HOUR)} h`;
  else {
    const days = Math.floor(abs / DAY);
    amount = `${days} ${days === 1 ? "day" : "days"}`;
  }
  return diff >= 0 ? `${amount} ago` : `in ${amount}`;
}

/** "2026-11-25 06:41:07 UTC" */
export function formatExact(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
