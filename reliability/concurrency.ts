import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { atMost, exactly, figure, inBatches, sampler, type Report } from "./lib/figures";
import { harnessPartner, listDomains } from "./lib/fixtures";
import { sendSigned, type Answer, type Target } from "./lib/transport";

// Harness 1, concurrency: `keys` idempotency keys, each sent `perKey` times at
// once to POST /orders.
//   identical bodies   -> one order per key, every answer 201 and byte-identical
//   conflicting bodies -> (each body a wrong price) one stored 422 price_mismatch
//                         per key and 409 conflict for the rest, no order
//   mixed              -> half the requests carry the right body: whichever runs
//                         first decides, every answer agrees with it, at most one order
// and never a 5xx. `parallelKeys` keys are in flight together.

export interface ConcurrencyOptions {
  targets: Target[];
  keys: number;
  perKey: number;
  parallelKeys: number;
}

const PATH = "/api/partner/v1/orders";
const PRICE = 31_400;
/**
 * The write class allows 20 a minute per credential; a key's requests use one
 * credential per 10 so the rate limit (the limits harness's subject) stays out of the way.
 */
const PER_CREDENTIAL = 10;

const orderBody = (domain: string, price: number, note = "") =>
  JSON.stringify({ domain, expected_price: price, currency: "USD", buyer: { email: "buyer@reliability.example" }, ...(note ? { external_payment_ref: note } : {}) });

const codeOf = (answer: Answer) => {
  try {
    return (JSON.parse(answer.text) as { error?: { code?: string } }).error?.code ?? "";
  } catch {
    return "not-json";
  }
};

export async function runConcurrency(options: ConcurrencyOptions): Promise<Report> {
  const { targets, keys, perKey, parallelKeys } = options;
  const credentialsPerKey = Math.ceil(perKey / PER_CREDENTIAL);
  const phases = ["identical", "conflicting", "mixed"] as const;
  const seller = await harnessPartner({ credentials: credentialsPerKey * keys * phases.length, scopes: ["buy"] });
  const domains = await listDomains(`rc${seller.suffix}x`, keys * phases.length, PRICE);
  const { samples, add } = sampler();
  let sent = 0;
  let fiveXx = 0;
  let credentialIndex = 0;

  /** `perKey` concurrent POSTs with one key; `bodyFor(i)` picks each request's body. */
  async function storm(bodyFor: (i: number) => string): Promise<Answer[]> {
    const key = randomUUID();
    const own = seller.pool.slice(credentialIndex, credentialIndex + credentialsPerKey);
    credentialIndex += credentialsPerKey;
    const answers = await Promise.all(
      Array.from({ length: perKey }, (_, i) =>
        sendSigned(targets[i % targets.length]!, own[i % own.length], { method: "POST", url: PATH, body: bodyFor(i), headers: { "idempotency-key": key } }),
      ),
    );
    sent += answers.length;
    for (const a of answers) {
      if (a.status < 500) continue;
      fiveXx++;
      add(`${a.target} ${a.status} ${a.text}`);
    }
    return answers;
  }

  // identical
  let identicalBad = 0;
  let identicalMismatch = 0;
  await inBatches(
    domains.slice(0, keys).map((domain) => async () => {
      const answers = await storm(() => orderBody(domain, PRICE));
      const bad = answers.filter((a) => a.status !== 201);
      identicalBad += bad.length;
      bad.slice(0, 1).forEach((a) => add(`identical ${domain}: ${a.status} ${a.text}`));
      if (new Set(answers.map((a) => a.text)).size !== 1) identicalMismatch++;
    }),
    parallelKeys,
  );

  // conflicting: every body a different wrong price
  let conflictingBad = 0;
  await inBatches(
    domains.slice(keys, 2 * keys).map((domain) => async () => {
      const answers = await storm((i) => orderBody(domain, PRICE - 1 - i));
      const codes = answers.map(codeOf);
      const ok = codes.filter((c) => c === "price_mismatch").length === 1 && codes.filter((c) => c === "conflict").length === perKey - 1;
      if (ok) return;
      conflictingBad++;
      add(`conflicting ${domain}: ${JSON.stringify(countBy(answers.map((a) => `${a.status} ${codeOf(a)}`)))}`);
    }),
    parallelKeys,
  );

  // mixed: even requests the right body, odd ones each a different note (a different body)
  let mixedBad = 0;
  await inBatches(
    domains.slice(2 * keys).map((domain) => async () => {
      const right = orderBody(domain, PRICE);
      const answers = await storm((i) => (i % 2 === 0 ? right : orderBody(domain, PRICE, `n${i}`)));
      const created = answers.filter((a) => a.status === 201);
      const others = answers.filter((a) => a.status !== 201);
      // The winner (the right body, or one of the noted ones: both are valid sales) is
      // replayed to every request carrying its body; every other body is 409 conflict.
      const consistent =
        new Set(created.map((a) => a.text)).size === 1 &&
        (created.length === 1 || created.length === Math.ceil(perKey / 2)) &&
        others.every((a) => a.status === 409 && codeOf(a) === "conflict");
      if (consistent) return;
      mixedBad++;
      add(`mixed ${domain}: ${JSON.stringify(countBy(answers.map((a) => `${a.status} ${codeOf(a)}`)))}`);
    }),
    parallelKeys,
  );

  const db = getDb();
  const rows = await db.execute<{ domain: string; orders: number; recorded: number }>(sql`
    select o.domain, count(distinct o.id)::int as orders, count(e.id)::int as recorded
    from orders o left join events e on e.partner_id = o.partner_id and e.type = 'order.recorded' and e.data->'order'->>'public_id' = o.id
    where o.partner_id = ${seller.partnerId} group by o.domain`);
  const byDomain = new Map(rows.map((r) => [r.domain, r]));
  const identicalDomains = domains.slice(0, keys);
  const conflictingDomains = domains.slice(keys, 2 * keys);
  const mixedDomains = domains.slice(2 * keys);
  const [stuck] = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from idempotency_keys where partner_id = ${seller.partnerId} and state <> 'completed'`);

  return {
    harness: `concurrency: ${keys} keys x ${perKey} concurrent POST /orders per phase, ${parallelKeys} keys at once, over ${targets.map((t) => t.name).join(", ")}`,
    figures: [
      figure("requests sent", sent, "-"),
      exactly("5xx answers", fiveXx, 0),
      exactly("identical: keys with one order", identicalDomains.filter((d) => byDomain.get(d)?.orders === 1).length, keys),
      exactly("identical: order.recorded events", identicalDomains.reduce((n, d) => n + (byDomain.get(d)?.recorded ?? 0), 0), keys),
      exactly("identical: answers not 201", identicalBad, 0),
      exactly("identical: keys with differing replays", identicalMismatch, 0),
      exactly("conflicting: orders created", conflictingDomains.reduce((n, d) => n + (byDomain.get(d)?.orders ?? 0), 0), 0),
      exactly("conflicting: keys not 1x422 + rest 409", conflictingBad, 0),
      exactly("mixed: keys with one order", mixedDomains.filter((d) => byDomain.get(d)?.orders === 1).length, keys),
      atMost("mixed: orders on one key (max)", Math.max(0, ...mixedDomains.map((d) => byDomain.get(d)?.orders ?? 0)), 1),
      exactly("mixed: keys with inconsistent answers", mixedBad, 0),
      exactly("idempotency keys left in progress", stuck?.n ?? 0, 0),
    ],
    samples,
  };
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
