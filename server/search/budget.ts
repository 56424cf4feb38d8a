// A budget typed in the query ("pizza under $500", "lawyer < 2k", "max 1500 usd"):
// taken out of the words (it names no domain) and used by the rerank's price fit.

const BUDGET = /(?:\b(?:under|below|max|upto|up\s+to|less\s+than|cheaper\s+than|budget)\b|<=?)\s*\$?\s*(\d{1,9}(?:[.,]\d{1,2})?)\s*(k\b)?\s*(?:\$|usd\b|dollars?\b)?/i;

export interface Budget {
  /** The query without the budget phrase. */
  text: string;
  /** Most the buyer wants to pay, in cents; null when no budget was typed. */
  maxCents: number | null;
}

export function extractBudget(q: string): Budget {
  const match = BUDGET.exec(q);
  if (!match) return { text: q, maxCents: null };
  const amount = Number((match[1] ?? "").replace(",", ".")) * (match[2] ? 1000 : 1);
  const maxCents = Number.isFinite(amount) && amount > 0 ? Math.round(amount * 100) : null;
  const text = `${q.slice(0, match.index)} ${q.slice(match.index + match[0].length)}`.replace(/\s+/g, " ").trim();
  return { text: text || q, maxCents };
}

/**
 * Price fit in [-0.15, 0.03]: a small lift within budget, a penalty growing with
 * how far over it the price is (twice the budget costs the full 0.15).
 */
export function priceFit(priceCents: number, maxCents: number | null): number {
  if (maxCents === null) return 0;
  if (priceCents <= maxCents) return 0.03;
  return -0.15 * Math.min(1, (priceCents - maxCents) / maxCents);
}
