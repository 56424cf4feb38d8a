// Dates as the dashboard's filters carry them in the URL: YYYY-MM-DD, UTC.

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function validDay(value: string): string | undefined {
  return DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? value : undefined;
}

/** The day after a YYYY-MM-DD (UTC calendar). */
export function nextDay(value: string): string {
  return new Date(Date.parse(`${value}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
