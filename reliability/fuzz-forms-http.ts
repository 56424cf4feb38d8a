import fc from "fast-check";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { checkoutSessions, users } from "@/db/schema";
import { createCheckoutSession } from "@/server/services/checkout";
import { exactly, figure, sampler, type Report } from "./lib/figures";
import { harnessPartner, listDomains } from "./lib/fixtures";
import { form } from "./fuzz-forms";

// Harness 5 over HTTP: the sign-in, sign-up and checkout pages' forms posted to
// a running server (`npm start`, or the e2e stage's), as a browser without
// JavaScript posts them: each page is fetched, its form's hidden fields (the
// server action's reference, the checkout's `pt`) are kept, and the visible
// fields are fast-check values (fuzz-forms.ts). Each post comes from an address
// of its own (X-Forwarded-For: start the server with TRUST_PROXY_HOPS=1, else
// the per-address limits answer most posts). Checks:
//   no 5xx          whatever is posted
//   nothing stored  a refused sign-up leaves no account, a refused sign-in no
//                   session cookie, a refused payment no order and an open session
// The database checked is DATABASE_URL: the server's.

export interface HttpFormFuzzOptions {
  baseUrl: string;
  runs: number;
  seed: number;
}

/** Each checkout session takes this many posts (the per-session limit is 5 per 10 minutes). */
const POSTS_PER_SESSION = 4;

/** The hidden inputs of a page's first POST form, as a browser would submit them. */
export function hiddenFields(html: string): [string, string][] {
  const formHtml = /<form[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1] ?? "";
  const fields: [string, string][] = [];
  for (const [tag] of formHtml.matchAll(/<input\b[^>]*>/g)) {
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
    const name = attr("name");
    if (attr("type") === "hidden" && name) fields.push([unescapeHtml(name), unescapeHtml(attr("value") ?? "")]);
  }
  return fields;
}

function unescapeHtml(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

export async function runHttpFormFuzz(options: HttpFormFuzzOptions): Promise<Report> {
  const db = getDb();
  const base = options.baseUrl.replace(/\/$/, "");
  const { samples, add } = sampler();
  const generated = fc.sample(form, { numRuns: options.runs, seed: options.seed });
  const seller = await harnessPartner({ credentials: 0, scopes: ["embed"] });
  const payPosts = generated.filter((input) => input.kind === "pay").length;
  // A name per pay post at most: a paid session's name is sold, so the next post gets a fresh one.
  const listed = await listDomains(`fh${seller.suffix}x`, payPosts + 1, 12_300);
  let nextDomain = 0;
  const newSession = async () => (await createCheckoutSession(db, { partnerId: seller.partnerId, environment: "sandbox", domain: listed[nextDomain++]! })).token;
  let token = await newSession();
  let sessionPosts = 0;

  const counts = { "sign-in": 0, "sign-up": 0, pay: 0 };
  const accepted = { "sign-in": 0, "sign-up": 0, pay: 0 };
  let fiveXx = 0;
  let answered = 0;
  let storedByRefused = 0;
  for (const [i, input] of generated.entries()) {
    counts[input.kind]++;
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    let path: string;
    let fields: Record<string, string>;
    if (input.kind === "pay") {
      if (sessionPosts++ === POSTS_PER_SESSION) {
        token = await newSession();
        sessionPosts = 1;
      }
      path = `/checkout?pt=${encodeURIComponent(token)}`;
      fields = { email: input.email, name: input.name, country: input.country, card_number: input.number, card_expiry: input.expiry, card_cvc: input.cvc };
    } else {
      path = input.kind === "sign-in" ? "/sign-in" : "/sign-up";
      fields = { email: input.email, password: input.password, ...(input.kind === "sign-up" ? { name: input.name } : {}) };
    }
    const page = await fetch(`${base}${path}`, { headers: { "x-forwarded-for": ip } });
    const body = new FormData();
    for (const [name, value] of hiddenFields(await page.text())) body.append(name, value);
    // The checkout's own token is a hidden field; a fuzzed one replaces it now and then.
    if (input.kind === "pay" && !input.realToken) body.set("pt", input.token);
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    const existedBefore = input.kind === "sign-up" && (await userExists(input.email));
    const answer = await fetch(`${base}${path}`, {
      method: "POST",
      body,
      redirect: "manual",
      headers: { origin: base, "x-forwarded-for": ip },
    });
    const html = await answer.text();
    const ok = answer.status === 303;
    if (ok) accepted[input.kind]++;
    // The action ran: it redirected, or the form came back with its error (a danger alert).
    if (ok || (answer.status === 200 && html.includes('role="alert"'))) answered++;
    if (answer.status >= 500) {
      fiveXx++;
      add(`seed ${options.seed} #${i} ${input.kind} ${JSON.stringify(fields).slice(0, 160)}: ${answer.status}`);
      continue;
    }
    if (ok) {
      if (input.kind === "pay" && (await sessionPaid(token))) {
        token = await newSession();
        sessionPosts = 0;
      }
      continue;
    }
    // refused: nothing of it stored
    let stored = false;
    if (input.kind === "sign-up") stored = !existedBefore && (await userExists(input.email));
    if (input.kind === "sign-in") stored = (answer.headers.get("set-cookie") ?? "").includes("session-token");
    if (input.kind === "pay") stored = await sessionPaid(token);
    if (stored) {
      storedByRefused++;
      add(`seed ${options.seed} #${i} ${input.kind} refused (${answer.status}) but stored: ${JSON.stringify(fields).slice(0, 160)}`);
    }
  }
  return {
    harness: `form fuzz over HTTP: ${options.runs} sign-in, sign-up and checkout-pay posts to ${base}, seed ${options.seed}`,
    figures: [
      figure("posts (sign-in / sign-up / pay)", `${counts["sign-in"]} / ${counts["sign-up"]} / ${counts.pay}`, "-"),
      figure("accepted: redirected (sign-in / sign-up / pay)", `${accepted["sign-in"]} / ${accepted["sign-up"]} / ${accepted.pay}`, "-"),
      exactly("posts the form's action did not answer (no redirect, no error shown)", options.runs - fiveXx - answered, 0),
      exactly("5xx answers", fiveXx, 0),
      exactly("refused posts that stored something", storedByRefused, 0),
    ],
    samples,
  };
}

async function userExists(email: string): Promise<boolean> {
  const [row] = await getDb().select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return Boolean(row);
}

async function sessionPaid(token: string): Promise<boolean> {
  const id = token.split(".")[0]!;
  const [row] = await getDb()
    .select({ paid: sql<boolean>`${checkoutSessions.status} = 'completed' or exists (select 1 from orders o where o.checkout_session_id = ${id})` })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, id));
  return Boolean(row?.paid);
}
