// Display helpers shared by the hosted checkout and the storefront.

/** Integer minor units -> "$1,234.00" (no float arithmetic on the amount itself). */
export function formatMoney(cents: number, currency: string): string {
  const format = new Intl.NumberFormat("en-US", { style: "currency", currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  const whole = BigInt(cents) / 10n ** BigInt(digits);
  const fraction = BigInt(cents) % 10n ** BigInt(digits);
  return format.format(`${whole}.${fraction.toString().padStart(digits, "0")}` as unknown as number);
}

const digitsCache = new Map<string, number>();

/** Decimal places of a currency (USD 2, JPY 0, KWD 3), as ICU knows them; 2 for a code it does not. */
export function currencyDigits(currency: string): number {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    digitsCache.set(currency, digits);
  }
  return digits;
}

const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });
/**
 * Codes ICU names that are not assigned ISO 3166-1 countries: groupings,
 * pseudo-regions, exceptionally reserved and withdrawn codes (aliases).
 */
const notCountries = new Set(
  "EU EZ UN QO ZZ XA XB AC CP CQ DG EA IC TA AN BU CS DD DY FX HV NH RH SU TP UK VD YD YU ZR".split(" "),
);

/** ISO 3166-1 alpha-2 codes with English names, sorted by name. */
export const countries: readonly { code: string; name: string }[] = (() => {
  const out: { code: string; name: string }[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (notCountries.has(code)) continue;
      const name = regionNames.of(code);
      if (name && name !== code) out.push({ code, name });
    }
  }
  return out.sort((x, y) => x.name.localeCompare(y.name, "en"));
})();

export const countryCodes = new Set(countries.map((c) => c.code));
