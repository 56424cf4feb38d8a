import fc from "fast-check";
import { getDb } from "@/db/client";
import { checkoutBuyerSchema } from "@/app/checkout/buyer";
import { authenticateUser, signInSchema, signUpSchema } from "@/server/auth/credentials";
import { isAppError } from "@/server/errors";
import { parseExpiry } from "@/server/payments/card";
import { createCheckoutSession, payCheckoutSession } from "@/server/services/checkout";
import { createUser } from "@/server/services/partners";
import { exactly, figure, sampler, type Report } from "./lib/figures";
import { harnessPartner, listDomains } from "./lib/fixtures";

// Harness 5, the page forms: sign-in, sign-up and the hosted checkout's pay
// form, fuzzed through what their server actions run (the actions themselves
// need Next's request scope): the form's schema, then the service. A throw that
// is not an AppError is what the page would show as a 500. Sign-in and sign-up
// hash with scrypt (N=2^17, by design slow): a few submissions a second.

export interface FormFuzzOptions {
  runs: number;
  seed: number;
}

export const nasty = fc.constantFrom("", " ", "\u0000", "a\u0000b", "\uFFFF", "🙂", "e\u0301", "<script>", "' or 1=1--", "x".repeat(300), "US", "ZZ", "12/99", "01/30", "4242 4242 4242 4242", "4000000000000002");
export const text = fc.oneof({ weight: 3, arbitrary: fc.string() }, { weight: 2, arbitrary: fc.string({ unit: "grapheme" }) }, { weight: 3, arbitrary: nasty });
const plainEmail = fc.tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom("example.com", "test.example", "xn--bcher-kva.example")).map(([local, host]) => `${local}@${host}`);
export const email = fc.oneof({ weight: 6, arbitrary: plainEmail }, { weight: 2, arbitrary: fc.emailAddress() }, { weight: 1, arbitrary: text });
export const randomIp = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`);

export const form = fc.oneof(
  fc.record({ kind: fc.constant("sign-in" as const), email, password: text, ip: randomIp }),
  fc.record({ kind: fc.constant("sign-up" as const), name: text, email, password: fc.oneof({ weight: 1, arbitrary: text }, { weight: 4, arbitrary: fc.string({ minLength: 8 }) }) }),
  fc.record({
    kind: fc.constant("pay" as const),
    email,
    name: fc.oneof({ weight: 1, arbitrary: fc.constant("Ada Lovelace") }, { weight: 2, arbitrary: text }),
    country: fc.oneof({ weight: 4, arbitrary: fc.constantFrom("US", "DE", "JP") }, { weight: 1, arbitrary: text }),
    number: fc.oneof(fc.constantFrom("4242 4242 4242 4242", "4000 0000 0000 0002"), text),
    expiry: fc.oneof({ weight: 4, arbitrary: fc.constantFrom("12/34", "01/20") }, { weight: 1, arbitrary: text }),
    cvc: fc.oneof(fc.constant("123"), text),
    realToken: fc.boolean(),
    token: text,
  }),
);

export async function runFormFuzz(options: FormFuzzOptions): Promise<Report> {
  const db = getDb();
  const { samples, add } = sampler();
  const seller = await harnessPartner({ credentials: 0, scopes: ["embed"] });
  const [listed] = await listDomains(`ff${seller.suffix}x`, 1, 12_300);
  const session = await createCheckoutSession(db, { partnerId: seller.partnerId, environment: "sandbox", domain: listed! });
  const counts = { "sign-in": 0, "sign-up": 0, pay: 0 };
  let reachedService = 0;
  let unexpected = 0;
  const generated = fc.sample(form, { numRuns: options.runs, seed: options.seed });
  for (const [i, input] of generated.entries()) {
    counts[input.kind]++;
    try {
      if (input.kind === "sign-in") {
        const parsed = signInSchema.safeParse({ email: input.email, password: input.password });
        if (!parsed.success) continue;
        reachedService++;
        await authenticateUser(db, parsed.data, input.ip);
      } else if (input.kind === "sign-up") {
        const parsed = signUpSchema.safeParse({ name: input.name, email: input.email, password: input.password });
        if (!parsed.success) continue;
        reachedService++;
        await createUser(db, { email: parsed.data.email, name: parsed.data.name || undefined, password: parsed.data.password, role: "customer" });
      } else {
        const buyer = checkoutBuyerSchema.safeParse({ email: input.email, name: input.name, country: input.country });
        const expiry = parseExpiry(input.expiry.trim());
        if (!buyer.success || !expiry) continue;
        reachedService++;
        await payCheckoutSession(db, {
          token: input.realToken ? session.token : input.token,
          buyer: buyer.data,
          card: { number: input.number, expMonth: expiry.month, expYear: expiry.year, cvc: input.cvc },
        });
      }
    } catch (error) {
      if (isAppError(error) && error.status < 500) continue; // the action answers these (a conflict on sign-up)
      unexpected++;
      add(`seed ${options.seed} #${i} ${input.kind} ${JSON.stringify(input).slice(0, 160)}: ${(error as Error).message.slice(0, 160)}`);
    }
  }
  return {
    harness: `form fuzz: ${options.runs} sign-in, sign-up and checkout-pay submissions through their schemas and services, seed ${options.seed}`,
    figures: [
      figure("submissions (sign-in / sign-up / pay)", `${counts["sign-in"]} / ${counts["sign-up"]} / ${counts.pay}`, "-"),
      figure("past the form's schema to the service", reachedService, "-"),
      exactly("errors a page would show as 500", unexpected, 0),
    ],
    samples,
  };
}
