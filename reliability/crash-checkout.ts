import { and, inArray, ne, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { checkoutSessions } from "@/db/schema";
import { clock } from "@/server/clock";
import { INTENT_STALE_MS, reconcilePaymentIntents } from "@/server/services/checkout";
import type { PartnerCredentials } from "@/server/signing/client";
import { exactly, figure, type Figure } from "./lib/figures";
import { sendSigned, type Target } from "./lib/transport";

// The crash harness's buyers: a partner creates a hosted checkout session
// (signed POST /checkout-session), then the buyer pays it through the pay
// form's own code (POST /checkout/pay on the gate servers runs
// app/checkout/pay-form.ts, as the page's server action does), retrying on a
// dead process or a 5xx. "Processing" (an intent a killed process left behind)
// is an answer: that buyer waits for the reconciler, then pays again.
//   0 lost         every session paid, its order the one the buyer was sent to
//   0 duplicated   one order and one succeeded payment per session, one
//                  unrefunded processor charge per paid session, none for an unpaid one
//   nothing stuck  no payment intent left pending

const RETURN_URL = "https://shop.reliability.example/thanks";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface CheckoutJob {
  domain: string;
  /** The buyer's own address (X-Forwarded-For; the gate servers trust one hop), so per-address limits are the buyer's. */
  ip: string;
  token?: string;
  /** The order the form redirected the buyer to. */
  orderId?: string;
  /** The last answer, when it was not a redirect. */
  last?: string;
}

export interface CheckoutCounters {
  attempts: number;
  transportErrors: number;
  fiveXx: number;
  processing: number;
  limited: number;
}

export const newCheckoutCounters = (): CheckoutCounters => ({ attempts: 0, transportErrors: 0, fiveXx: 0, processing: 0, limited: 0 });

/** Retries `send` on a dead process or a 5xx (backing off), until another answer or `maxAttempts`. */
async function untilAnswered<T extends { status: number }>(counters: CheckoutCounters, send: (attempt: number) => Promise<T>, maxAttempts = 200): Promise<T | undefined> {
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    counters.attempts++;
    try {
      const answer = await send(attempt);
      if (answer.status < 500 && answer.status !== 429) return answer;
      if (answer.status >= 500) counters.fiveXx++;
    } catch {
      counters.transportErrors++; // the process died under the request: retry elsewhere
    }
    await sleep(Math.min(1000, 50 * 2 ** Math.min(attempt, 4)));
  }
  return undefined;
}

/** Creates the job's session (once) and submits the pay form until it redirects or answers "processing". */
export async function payCheckout(job: CheckoutJob, targets: () => Target[], credential: () => PartnerCredentials, counters: CheckoutCounters): Promise<void> {
  const pick = (attempt: number) => {
    const list = targets();
    return list[attempt % list.length]!;
  };
  if (!job.token) {
    const body = JSON.stringify({ domain: job.domain, return_url: RETURN_URL, buyer_email: "buyer@reliability.example" });
    const created = await untilAnswered(counters, (attempt) => sendSigned(pick(attempt), credential(), { method: "POST", url: "/api/partner/v1/checkout-session", body }));
    if (created?.status !== 201) {
      job.last = `checkout-session ${created?.status ?? "no answer"} ${created?.text ?? ""}`;
      return;
    }
    job.token = new URL((JSON.parse(created.text) as { checkout_url: string }).checkout_url).searchParams.get("pt") ?? undefined;
  }
  const form = new URLSearchParams({
    pt: job.token ?? "",
    email: "buyer@reliability.example",
    name: "Reliability Buyer",
    country: "US",
    card_number: "4242 4242 4242 4242",
    card_expiry: "12/34",
    card_cvc: "123",
  }).toString();
  const paid = await untilAnswered(counters, (attempt) =>
    pick(attempt).send(
      new Request("http://localhost/checkout/pay", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": job.ip },
        body: form,
      }),
    ).then(async (response) => ({ status: response.status, location: response.headers.get("location"), text: await response.text() })),
  );
  if (paid?.status === 303 && paid.location) {
    const orderId = new URL(paid.location, "http://localhost").searchParams.get("order_id");
    if (orderId) job.orderId = orderId;
    job.last = undefined;
    return;
  }
  job.last = paid ? `${paid.status} ${paid.text}` : "no answer";
  if (paid?.text.includes("already being processed")) counters.processing++;
  if (paid?.text.includes("Too many payment attempts")) counters.limited++;
}

/**
 * After the killing: the reconciler finishes intents whose process died (its
 * clock moved past their staleness; this cluster is the harness's alone), then
 * every buyer whose session is still open pays again.
 */
export async function finishCheckouts(jobs: CheckoutJob[], targets: () => Target[], credential: () => PartnerCredentials, counters: CheckoutCounters) {
  clock.advance(INTENT_STALE_MS + 1_000);
  const reconciled = await reconcilePaymentIntents(getDb(), { limit: 10_000 }).finally(() => clock.advance(-(INTENT_STALE_MS + 1_000)));
  const open = await openSessions(jobs);
  for (const job of jobs) if (!job.token || open.has(job.token)) await payCheckout(job, targets, credential, counters);
  return { reconciled, repaid: jobs.filter((j) => !j.token || open.has(j.token)).length };
}

async function openSessions(jobs: CheckoutJob[]): Promise<Set<string>> {
  const ids = new Map(jobs.flatMap((j) => (j.token ? [[sessionIdOf(j.token), j.token] as const] : [])));
  if (ids.size === 0) return new Set();
  const rows = await getDb()
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(inArray(checkoutSessions.id, [...ids.keys()]), ne(checkoutSessions.status, "completed")));
  return new Set(rows.map((r) => ids.get(r.id)!));
}

/** A `pt` token is `cs_<id>.<claims>.<signature>`. */
const sessionIdOf = (token: string) => token.split(".")[0]!;

export async function checkoutFigures(partnerId: string, jobs: CheckoutJob[], counters: CheckoutCounters, add: (line: string) => void): Promise<Figure[]> {
  const db = getDb();
  const sessions = await db.execute<{ id: string; status: string; order_id: string | null; orders: number; succeeded: number; paid_order: string | null; pending: number; charges: number }>(sql`
    select s.id, s.status, s.order_id,
      (select count(*)::int from orders o where o.checkout_session_id = s.id) as orders,
      (select count(*)::int from payments p where p.checkout_session_id = s.id and p.status = 'succeeded') as succeeded,
      (select min(p.order_id) from payments p where p.checkout_session_id = s.id and p.status = 'succeeded') as paid_order,
      (select count(*)::int from payments p where p.checkout_session_id = s.id and p.status = 'pending') as pending,
      (select count(*)::int from payments p join sandbox_processor_charges c on c.idempotency_key = p.idempotency_key
         where p.checkout_session_id = s.id and c.status = 'succeeded' and c.refund_ref is null) as charges
    from checkout_sessions s where s.partner_id = ${partnerId}`);
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const jobSessions = jobs.map((j) => (j.token ? byId.get(sessionIdOf(j.token)) : undefined));
  jobs.forEach((job, i) => jobSessions[i]?.status !== "completed" && add(`${job.domain}: not paid; last answer ${job.last ?? "-"}`));
  const [refunded] = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from payments p join checkout_sessions s on s.id = p.checkout_session_id
    where s.partner_id = ${partnerId} and p.status in ('refunding', 'refunded')`);
  return [
    figure("checkout: requests sent / failed in transit or refused by a dead process / 5xx", `${counters.attempts} / ${counters.transportErrors} / ${counters.fiveXx}`, "-"),
    figure("checkout: answered 'processing' (intent of a killed process) / limited", `${counters.processing} / ${counters.limited}`, "-"),
    exactly("checkout: buyers whose session is not paid (lost)", jobSessions.filter((s) => s?.status !== "completed").length, 0),
    exactly("checkout: buyers sent to an order that is not their session's", jobs.filter((j, i) => j.orderId && j.orderId !== jobSessions[i]?.order_id).length, 0),
    exactly("checkout: sessions with more than one order or succeeded payment", sessions.filter((s) => s.orders > 1 || s.succeeded > 1).length, 0),
    exactly("checkout: paid sessions whose order and payment disagree", sessions.filter((s) => s.status === "completed" && (s.orders !== 1 || s.succeeded !== 1 || s.paid_order !== s.order_id)).length, 0),
    exactly("checkout: sessions charged twice, or charged and unpaid", sessions.filter((s) => s.charges !== (s.status === "completed" ? 1 : 0)).length, 0),
    exactly("checkout: payment intents left pending", sessions.reduce((n, s) => n + s.pending, 0), 0),
    figure("checkout: payments refunded (charged for a name sold meanwhile)", refunded?.n ?? 0, "-"),
  ];
}
