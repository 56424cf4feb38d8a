import type { CardInput } from "./provider";

// Card checks every provider makes before talking to a network: Luhn, an
// expiry that has not passed (valid through the end of its month, UTC) and a
// 3-4 digit CVC. Field names match the hosted checkout form.

export type CardField = "card_number" | "card_expiry" | "card_cvc";

export interface CardProblem {
  field: CardField;
  code: "incorrect_number" | "expired_card" | "invalid_expiry" | "invalid_cvc";
  message: string;
}

export function cardDigits(number: string): string {
  return number.replace(/[\s-]/g, "");
}

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** "MM/YY", "MM / YY" or "MM/YYYY" -> month and four-digit year, or null. */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

export function checkCard(card: CardInput, now: Date): CardProblem[] {
  const problems: CardProblem[] = [];
  if (!luhnValid(cardDigits(card.number))) {
    problems.push({ field: "card_number", code: "incorrect_number", message: "Card number is not valid. Check the digits and try again." });
  }
  const validMonth = Number.isInteger(card.expMonth) && card.expMonth >= 1 && card.expMonth <= 12 && Number.isInteger(card.expYear);
  if (!validMonth) {
    problems.push({ field: "card_expiry", code: "invalid_expiry", message: "Enter the expiry date as MM/YY." });
  } else {
    const endOfMonth = Date.UTC(card.expYear, card.expMonth, 1); // first instant after the expiry month
    if (now.getTime() >= endOfMonth) {
      problems.push({ field: "card_expiry", code: "expired_card", message: "This card has expired." });
    }
  }
  if (!/^\d{3,4}$/.test(card.cvc)) {
    problems.push({ field: "card_cvc", code: "invalid_cvc", message: "Security code must be 3 or 4 digits." });
  }
  return problems;
}
