import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { closeDb, getDb } from "@/db/client";
import { domains, quotes, type Environment } from "@/db/schema";
import * as availabilityRoute from "@/app/api/partner/v1/availability/route";
import * as domainRoute from "@/app/api/partner/v1/domains/[name]/route";
import * as searchRoute from "@/app/api/partner/v1/domains/search/route";
import * as pricingRoute from "@/app/api/partner/v1/pricing/route";
import { clock } from "@/server/clock";
import {
  availability as availabilitySchema,
  domainDetails as domainDetailsSchema,
  pricing as pricingSchema,
  searchResponse as searchResponseSchema,
} from "@/server/contracts/discovery";
import { newId } from "@/server/ids";
import { addDomain, removeDomain, type AddDomainInput } from "@/server/services/inventory";
import { listingRead, parseSearchQuery } from "@/server/services/discovery";
import { addCredential, callRoute, createTestPartner, type TestCredential } from "../helpers/partner";
import { opaqueTag } from "../helpers/tags";

// Discovery against the real database: each run lists its own domains under a
// random letters-only tag, so reruns on one database never collide and other
// suites' inventory cannot satisfy (or spoil) an assertion by accident.

type Search = z.infer<typeof searchResponseSchema>;
type Details = z.infer<typeof domainDetailsSchema>;
type Availability = z.infer<typeof availabilitySchema>;
type Pricing = z.infer<typeof pricingSchema>;
interface ErrorBody {
  error: { code: string; message: string; request_id: string; details?: { path: string; message: string }[] };
}

const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join("");
const tag = opaqueTag("zq");
const name = (label: string, tld = "com") => `${tag}${label}.${tld}`;

/** The response's keys are exactly the schema's, and it parses. */
function assertMatches(schema: z.ZodObject, body: unknown) {
  schema.parse(body);
  assert.deepEqual(Object.keys(body as object).sort(), Object.keys(schema.shape).sort());
}

function assertError(res: { status: number; body: unknown }, status: number, code: string, detailPath?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  const body = res.body as ErrorBody;
  assert.equal(body.error.code, code);
  assert.ok(body.error.request_id);
  if (detailPath !== undefined) assert.equal(body.error.details?.[0]?.path, detailPath, JSON.stringify(body));
}

let sandboxPartnerId: string; // the partner under test; each group signs with its own credential
let live: TestCredential;
let other: { partnerId: string; credential: TestCredential }; // holds quotes

const listingIds = new Map<string, string>();

async function list(input: Omit<AddDomainInput, "environment"> & { environment?: Environment }) {
  const row = await addDomain(getDb(), { environment: "sandbox", ...input });
  listingIds.set(`${row.environment}:${row.name}`, row.id);
  return row;
}

async function setStatus(domain: string, status: "sold" | "reserved") {
  await getDb().update(domains).set({ status }).where(eq(domains.id, listingIds.get(`sandbox:${domain}`) as string));
}

async function quote(domain: string, partnerId: string, expiresInMs: number) {
  await getDb()
    .insert(quotes)
    .values({
      id: newId("quote"),
      partnerId,
      environment: "sandbox",
      domainId: listingIds.get(`sandbox:${domain}`) as string,
      domain,
      salePriceCents: 100_000,
      expiresAt: new Date(clock.nowMs() + expiresInMs),
    });
}

const search = (credential: TestCredential, query: string) =>
  callRoute<Search>(searchRoute.GET, { url: `/api/partner/v1/domains/search?${query}`, credential });
const details = (credential: TestCredential, domain: string) =>
  callRoute<Details>(domainRoute.GET, {
    url: `/api/partner/v1/domains/${encodeURIComponent(domain)}`,
    params: { name: domain },
    credential,
  });
const availabilityOf = (credential: TestCredential, domain: string) =>
  callRoute<Availability>(availabilityRoute.GET, {
    url: `/api/partner/v1/availability?domain=${encodeURIComponent(domain)}`,
    credential,
  });
const pricingOf = (credential: TestCredential, domain: string) =>
  callRoute<Pricing>(pricingRoute.GET, { url: `/api/partner/v1/pricing?domain=${encodeURIComponent(domain)}`, credential });

/** A fresh credential of the same partner keeps each group well under the 60/min search limit. */
function freshSandbox(): Promise<TestCredential> {
  return addCredential(sandboxPartnerId, "sandbox", ["search"]);
}

describe("discovery", () => {
  before(async () => {
    sandboxPartnerId = (await createTestPartner({ scopes: ["search"] })).partnerId;
    live = (await createTestPartner({ scopes: ["search"], environment: "live" })).credential;
    other = await createTestPartner({ scopes: ["search", "buy"] });

    await list({
      name: name("lawyer"),
      priceCents: 250_000,
      floorPriceCents: 150_000,
      vertical: "legal",
      description: "A lawyer name",
      registeredYear: 2011,
      tokens: `${tag} lawyer`,
    });
    await list({ name: name("lawyer", "io"), priceCents: 120_000, tokens: `${tag} lawyer` });
    await list({ name: `${tag}-legal-help.net`, priceCents: 90_000, tokens: `${tag} legal help` });
    await list({ name: `best${tag}.com`, priceCents: 80_000, tokens: `best ${tag}` });
    await list({ name: name("pizza", "shop"), priceCents: 30_000, tokens: `${tag} pizza` });
    await list({ name: name("sold"), priceCents: 70_000, floorPriceCents: 50_000, tokens: `${tag} sold` });
    await setStatus(name("sold"), "sold");
    await list({ name: name("pending"), priceCents: 60_000, tokens: `${tag} pending` });
    await setStatus(name("pending"), "reserved");
    await list({ name: name("gone"), priceCents: 50_000, tokens: `${tag} gone` });
    await removeDomain(getDb(), { environment: "sandbox", name: name("gone") });
    await list({ name: name("quoted"), priceCents: 40_000, tokens: `${tag} quoted` });
    await quote(name("quoted"), other.partnerId, 10 * 60_000);
    await list({ name: name("expired"), priceCents: 45_000, tokens: `${tag} expired` });
    await quote(name("expired"), other.partnerId, -1_000);
    await list({ name: name("mine"), priceCents: 35_000, tokens: `${tag} mine` });
    await quote(name("mine"), sandboxPartnerId, 10 * 60_000);
    await list({ environment: "live", name: name("livelaw"), priceCents: 990_000, tokens: `${tag} live law` });
  });

  after(async () => {
    clock.reset();
    await closeDb();
  });

  describe("GET /domains/search", () => {
    let cred: TestCredential;
    before(async () => {
      cred = await freshSandbox();
    });

    it("ranks an exact name first and never returns more than 5", async () => {
      const res = await search(cred, `q=${encodeURIComponent(name("lawyer"))}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assertMatches(searchResponseSchema, res.body);
      assert.equal(res.body.query, name("lawyer"));
      assert.ok(res.body.results.length >= 2 && res.body.results.length <= 5);
      const first = res.body.results[0];
      assert.equal(first?.domain, name("lawyer"));
      assert.equal(first?.available, true);
      assert.equal(first?.sale_price_cents, 250_000);
      assert.equal(first?.currency, "USD");
      assert.equal(first?.score, 1);
      assert.equal(res.body.results[1]?.domain, name("lawyer", "io"), "same label, other TLD next");
      assert.ok(res.headers.get("ratelimit-limit"));
    });

    it("caps at 5 (or the limit asked) without padding, and shows only domains on the market", async () => {
      const all = await search(cred, `q=${tag}`);
      assert.equal(all.status, 200);
      assert.equal(all.body.results.length, 5);
      const capped = await search(cred, `q=${tag}&limit=2`);
      assert.equal(capped.body.results.length, 2);
      for (const hidden of [name("sold"), name("pending"), name("gone"), name("livelaw")]) {
        const res = await search(cred, `q=${encodeURIComponent(hidden)}`);
        assert.equal(res.status, 200);
        assert.ok(!res.body.results.some((r) => r.domain === hidden), `${hidden} is not searchable from sandbox`);
      }
    });

    it("finds a typo through trigram similarity", async () => {
      const res = await search(cred, `q=${tag}lawyr`);
      assert.equal(res.status, 200);
      const found = res.body.results.map((r) => r.domain);
      assert.ok(found.slice(0, 2).includes(name("lawyer")), found.join(", "));
    });

    it("matches words of the name through its tokens", async () => {
      const res = await search(cred, `q=${encodeURIComponent(`${tag} help`)}`);
      assert.equal(res.body.results[0]?.domain, `${tag}-legal-help.net`);
      const pizza = await search(cred, `q=${encodeURIComponent(`pizza ${tag}`)}`);
      assert.equal(pizza.body.results[0]?.domain, name("pizza", "shop"));
    });

    it("prefers a TLD typed in the query, and understands URLs", async () => {
      const spaced = await search(cred, `q=${encodeURIComponent(`${tag}lawyer .io`)}`);
      assert.equal(spaced.body.results[0]?.domain, name("lawyer", "io"));
      const url = await search(cred, `q=${encodeURIComponent(`https://www.${name("lawyer", "io")}/contact?x=1`)}`);
      assert.equal(url.body.results[0]?.domain, name("lawyer", "io"));
      assert.equal(url.body.query, name("lawyer", "io"));
    });

    it("returns nothing for a nonsense query", async () => {
      const res = await search(cred, `q=${encodeURIComponent(`${letters(3)}qxjz vbkwq${letters(4)}`)}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.results, []);
      const punctuation = await search(cred, `q=${encodeURIComponent("!!! ...")}`);
      assert.deepEqual(punctuation.body.results, []);
    });

    it("shows a domain held by another partner's quote as reserved", async () => {
      const res = await search(cred, `q=${encodeURIComponent(name("quoted"))}`);
      const hit = res.body.results.find((r) => r.domain === name("quoted"));
      assert.equal(hit?.available, false);
      assert.equal(hit?.status, "reserved");
      assert.equal(hit?.sale_price_cents, 40_000);
    });

    it("keeps sandbox and live inventories apart", async () => {
      const fromLive = await search(live, `q=${tag}`);
      assert.equal(fromLive.status, 200);
      // Every name carrying the random tag is a sandbox name but one; the live key
      // sees that one, first. (Other live listings may follow: the engine segments
      // a random tag into chance words, which is a relevance matter, not isolation.)
      const tagged = fromLive.body.results.map((r) => r.domain).filter((domain) => domain.includes(tag));
      assert.deepEqual(tagged, [name("livelaw")]);
      assert.equal(fromLive.body.results[0]?.domain, name("livelaw"));
      const fromSandbox = await search(cred, `q=${encodeURIComponent(`${tag} live law`)}`);
      assert.ok(!fromSandbox.body.results.some((r) => r.domain === name("livelaw")));
    });

    it("rejects a missing, blank, too long or repeated q and a bad limit", async () => {
      assertError(await search(cred, "limit=3"), 400, "validation_error", "q");
      assertError(await search(cred, "q=%20%20"), 400, "validation_error", "q");
      assertError(await search(cred, `q=${"a".repeat(201)}`), 400, "validation_error", "q");
      assertError(await search(cred, "q=a&q=b"), 400, "validation_error", "q");
      assertError(await search(cred, "q=law&limit=6"), 400, "validation_error", "limit");
      assertError(await search(cred, "q=law&limit=0"), 400, "validation_error", "limit");
      assertError(await search(cred, "q=law&limit=two"), 400, "validation_error", "limit");
      const maxLength = await search(cred, `q=${"a".repeat(200)}`);
      assert.equal(maxLength.status, 200);
    });

    it("survives hostile and non-ASCII queries", async () => {
      const more = await freshSandbox();
      for (const q of ["münchen", "日本語 ドメイン", "a:* | b & !c", "'; drop table domains; --", "%", "🍕 pizza", "x".repeat(64), "1 2 3 4 5 6 7 8 9 10"]) {
        const res = await search(more, `q=${encodeURIComponent(q)}`);
        assert.equal(res.status, 200, `${q}: ${JSON.stringify(res.body)}`);
        assert.ok(res.body.results.length <= 5);
      }
    });

    it("answers 405 to other methods", async () => {
      const res = await callRoute(searchRoute.POST, { method: "POST", url: "/api/partner/v1/domains/search?q=x", credential: cred, body: {} });
      assertError(res, 405, "method_not_allowed");
    });
  });

  describe("GET /domains/{name}", () => {
    let cred: TestCredential;
    before(async () => {
      cred = await freshSandbox();
    });

    it("returns price, availability and metadata", async () => {
      const res = await details(cred, name("lawyer"));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assertMatches(domainDetailsSchema, res.body);
      assert.deepEqual(res.body, {
        domain: name("lawyer"),
        available: true,
        status: "listed",
        sale_price_cents: 250_000,
        floor_price_cents: 150_000,
        currency: "USD",
        label: `${tag}lawyer`,
        tld: "com",
        length: `${tag}lawyer`.length,
        keywords: [tag, "lawyer"],
        vertical: "legal",
        description: "A lawyer name",
        registered_year: 2011,
      });
    });

    it("normalises the name it is given", async () => {
      const res = await details(cred, `${name("lawyer").toUpperCase()}.`);
      assert.equal(res.status, 200);
      assert.equal(res.body.domain, name("lawyer"));
    });

    it("answers a sold domain with available false and no price", async () => {
      const res = await details(cred, name("sold"));
      assert.equal(res.status, 200);
      assert.equal(res.body.available, false);
      assert.equal(res.body.status, "sold");
      assert.equal(res.body.sale_price_cents, null);
      assert.equal(res.body.floor_price_cents, null);
    });

    it("answers a reserved domain with available false and its price", async () => {
      const res = await details(cred, name("pending"));
      assert.equal(res.status, 200);
      assert.equal(res.body.available, false);
      assert.equal(res.body.status, "reserved");
      assert.equal(res.body.sale_price_cents, 60_000);
    });

    it("is 404 for a removed or unknown domain, and for the other environment's", async () => {
      assertError(await details(cred, name("gone")), 404, "not_found");
      assertError(await details(cred, name("neverlisted")), 404, "not_found");
      assertError(await details(cred, name("livelaw")), 404, "not_found");
      assertError(await details(live, name("lawyer")), 404, "not_found");
      const fromLive = await details(live, name("livelaw"));
      assert.equal(fromLive.status, 200);
      assert.equal(fromLive.body.sale_price_cents, 990_000);
    });

    it("rejects a malformed name with a detail on the path parameter", async () => {
      assertError(await details(cred, "not a domain"), 400, "validation_error", "name");
      assertError(await details(cred, "localhost"), 400, "validation_error", "name");
    });
  });

  describe("GET /availability", () => {
    let cred: TestCredential;
    before(async () => {
      cred = await freshSandbox();
    });

    it("reports a listed domain as available with its price", async () => {
      const res = await availabilityOf(cred, name("lawyer"));
      assert.equal(res.status, 200);
      assertMatches(availabilitySchema, res.body);
      assert.deepEqual(res.body, { domain: name("lawyer"), available: true, status: "listed", sale_price_cents: 250_000, currency: "USD" });
    });

    it("answers 200 with available false for unlisted, removed and other-environment domains", async () => {
      for (const domain of [name("neverlisted"), name("gone"), name("livelaw")]) {
        const res = await availabilityOf(cred, domain);
        assert.equal(res.status, 200, domain);
        assertMatches(availabilitySchema, res.body);
        assert.deepEqual(res.body, { domain, available: false, status: "unlisted", sale_price_cents: null, currency: null });
      }
      const lawyerFromLive = await availabilityOf(live, name("lawyer"));
      assert.equal(lawyerFromLive.body.available, false);
      assert.equal(lawyerFromLive.body.status, "unlisted");
    });

    it("reports sold and reserved domains as unavailable", async () => {
      const sold = await availabilityOf(cred, name("sold"));
      assert.deepEqual(sold.body, { domain: name("sold"), available: false, status: "sold", sale_price_cents: null, currency: null });
      const pending = await availabilityOf(cred, name("pending"));
      assert.deepEqual(pending.body, { domain: name("pending"), available: false, status: "reserved", sale_price_cents: 60_000, currency: "USD" });
    });

    it("treats another partner's unexpired quote as a hold, but not an expired one or the caller's own", async () => {
      const quoted = await availabilityOf(cred, name("quoted"));
      assert.equal(quoted.body.available, false);
      assert.equal(quoted.body.status, "reserved");
      const quoter = await availabilityOf(other.credential, name("quoted"));
      assert.equal(quoter.body.available, true, "the quote's owner can still buy it");
      assert.equal((await availabilityOf(cred, name("expired"))).body.available, true);
      assert.equal((await availabilityOf(cred, name("mine"))).body.available, true);
      assert.equal((await availabilityOf(other.credential, name("mine"))).body.available, false);
    });

    it("releases the hold once the quote expires on the service clock", async () => {
      // Its own credential: moving the clock forward and back would leave a rate-limit bucket in the future.
      const timeTraveller = await freshSandbox();
      clock.advance(11 * 60_000);
      try {
        const res = await callRoute<Availability>(availabilityRoute.GET, {
          url: `/api/partner/v1/availability?domain=${name("quoted")}`,
          credential: timeTraveller,
          timestamp: clock.nowSeconds(),
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.available, true);
      } finally {
        clock.reset();
      }
    });

    it("rejects a missing or malformed domain with a detail on `domain`", async () => {
      assertError(await callRoute(availabilityRoute.GET, { url: "/api/partner/v1/availability", credential: cred }), 400, "validation_error", "domain");
      assertError(await availabilityOf(cred, "foo"), 400, "validation_error", "domain");
      assertError(await availabilityOf(cred, "exa mple.com"), 400, "validation_error", "domain");
      assertError(await availabilityOf(cred, "example.123"), 400, "validation_error", "domain");
    });
  });

  describe("the hold check's plan", () => {
    it("reads the quotes index in the prepared plan even when a few listings hold most quotes", async () => {
      // An agent quoting the same names again and again leaves many quotes on few listings. With the hold
      // check written as EXISTS, the prepared statement's generic plan then seq-scanned every quote for
      // every availability read (bench/HOT-PATH.md section 17). 20k expired quotes on three listings:
      const db = getDb();
      const crowded = [name("quoted"), name("expired"), name("mine")].map((domain) => listingIds.get(`sandbox:${domain}`) as string);
      await db.execute(sql`insert into quotes (id, partner_id, environment, domain_id, domain, sale_price_cents, currency, expires_at)
        select 'quote_plan' || ${tag} || i, ${other.partnerId}, 'sandbox', (array[${sql.join(crowded.map((id) => sql`${id}::text`), sql`, `)}])[1 + i % 3], 'x.com', 100000, 'USD', now() - interval '1 hour'
        from generate_series(1, 20000) i`);
      await db.execute(sql`analyze quotes`);
      const { sql: text, params } = listingRead({ environment: "sandbox", partnerId: sandboxPartnerId, name: name("lawyer") });
      const literal = (value: unknown) => `'${String(value).replace(/'/g, "''")}'`;
      const plan = await db.transaction(async (tx) => {
        await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
        await tx.execute(sql.raw(`prepare hold_plan as ${text}`));
        try {
          const rows = await tx.execute<{ "QUERY PLAN": string }>(sql.raw(`explain execute hold_plan(${params.map(literal).join(", ")})`));
          return rows.map((row) => row["QUERY PLAN"]).join("\n");
        } finally {
          await tx.execute(sql`deallocate hold_plan`);
        }
      });
      assert.match(plan, /Index Scan[^\n]* on quotes/, plan);
      assert.doesNotMatch(plan, /Seq Scan on quotes/, plan);
      // And the answers are unchanged: the listing is free, the quoted one held for others.
      assert.equal((await availabilityOf(await freshSandbox(), name("lawyer"))).body.available, true);
      assert.equal((await availabilityOf(await freshSandbox(), name("quoted"))).body.available, false);
    });
  });

  describe("GET /pricing", () => {
    let cred: TestCredential;
    before(async () => {
      cred = await freshSandbox();
    });

    it("returns the buy-now and floor prices", async () => {
      const res = await pricingOf(cred, name("lawyer"));
      assert.equal(res.status, 200);
      assertMatches(pricingSchema, res.body);
      assert.deepEqual(res.body, {
        domain: name("lawyer"),
        available: true,
        sale_price_cents: 250_000,
        floor_price_cents: 150_000,
        currency: "USD",
      });
      const noFloor = await pricingOf(cred, name("lawyer", "io"));
      assert.equal(noFloor.body.floor_price_cents, null);
    });

    it("prices a reserved listing but marks it unavailable", async () => {
      const res = await pricingOf(cred, name("pending"));
      assert.equal(res.status, 200);
      assert.equal(res.body.available, false);
      assert.equal(res.body.sale_price_cents, 60_000);
    });

    it("is 404 for unlisted, removed, sold and other-environment domains", async () => {
      for (const domain of [name("neverlisted"), name("gone"), name("sold"), name("livelaw")]) {
        assertError(await pricingOf(cred, domain), 404, "not_found");
      }
      assertError(await pricingOf(live, name("lawyer")), 404, "not_found");
      const fromLive = await pricingOf(live, name("livelaw"));
      assert.equal(fromLive.status, 200);
    });

    it("rejects a malformed domain", async () => {
      assertError(await pricingOf(cred, "-bad-.com"), 400, "validation_error", "domain");
    });
  });

  describe("query understanding", () => {
    it("strips schemes, www and paths, and detects a typed TLD", () => {
      assert.deepEqual(parseSearchQuery("https://www.PizzaNow.io/menu?x=1"), {
        text: "pizzanow.io",
        words: ["pizzanow"],
        compact: "pizzanow",
        tld: "io",
        exactName: "pizzanow.io",
        fillers: [],
        phrase: "pizzanow",
        beforeObject: [],
      });
      const spaced = parseSearchQuery("pizza  .io");
      assert.equal(spaced.tld, "io");
      assert.equal(spaced.exactName, "pizza.io");
      assert.deepEqual(parseSearchQuery("best pizza24 shop").words, ["best", "pizza", "24", "shop"]);
      assert.deepEqual(parseSearchQuery("domains for dogs").words, ["dogs"]);
      assert.deepEqual(parseSearchQuery("domains for dogs").fillers, ["domains", "for"], "kept aside for the rerank");
      assert.equal(parseSearchQuery("the justice").phrase, "thejustice");
      assert.deepEqual(parseSearchQuery("the").words, ["the"]);
      assert.deepEqual(parseSearchQuery("the").fillers, [], "a query of fillers alone searches for them");
      assert.deepEqual(parseSearchQuery("!!!").words, []);
    });

    it("joins at an apostrophe and after a lone letter's hyphen, and reads 24/7 as a number", () => {
      const words = (q: string) => parseSearchQuery(q).words;
      assert.deepEqual(words("women's clothing"), ["womens", "clothing"], "no word 's' of its own");
      assert.deepEqual(words("women\u2019s clothing"), ["womens", "clothing"], "a typographic apostrophe too");
      assert.deepEqual(words("kids' toys"), ["kids", "toys"]);
      assert.deepEqual(words("t-shirts printing"), ["tshirts", "printing"]);
      assert.deepEqual(words("e-bike shop"), ["ebike", "shop"]);
      assert.deepEqual(words("rock-climbing gym"), ["rock", "climbing", "gym"], "a hyphen between words still splits");
      assert.deepEqual(words("24/7 plumber"), ["247", "plumber"]);
      assert.equal(parseSearchQuery("https://www.e-bike.com/path").exactName, "e-bike.com", "a name typed keeps its hyphen");
      assert.equal(parseSearchQuery("example.com/24/7").exactName, "example.com");
    });

    it("keeps the subject of a long request: framing words go before any word is cut", () => {
      // Nine words once fillers are out; the cap is eight. Cutting from the end lost "books".
      assert.deepEqual(parseSearchQuery("can you find me a domain for a shop selling second hand books?").words, [
        "you", "find", "me", "shop", "selling", "second", "hand", "books",
      ]);
      assert.deepEqual(parseSearchQuery("help me name my business, somewhere to buy old vinyl records").words, [
        "me", "my", "business", "somewhere", "buy", "old", "vinyl", "records",
      ]);
      const subjects = "alpha bravo charlie delta echo foxtrot golf hotel india juliet";
      assert.deepEqual(parseSearchQuery(subjects).words, subjects.split(" ").slice(0, 8), "no framing to drop: the first eight");
    });

    it("reads 'a groomer for dogs' as a dog groomer: the noun before 'for' is the head, put last", () => {
      assert.deepEqual(parseSearchQuery("broker for insurance").words, ["insurance", "broker"]);
      assert.deepEqual(parseSearchQuery("somewhere to book a groomer for my dogs").words, ["somewhere", "book", "dogs", "groomer"]);
      assert.deepEqual(parseSearchQuery("spare parts for cars").words, ["cars", "spare", "parts"], "a compound stays whole");
      assert.deepEqual(parseSearchQuery("insurance broker").compact, parseSearchQuery("broker for insurance").compact);
      // Framing before "for", or a clause after it, keeps the order.
      assert.deepEqual(parseSearchQuery("name for a car repair garage").words, ["car", "repair", "garage"]);
      assert.deepEqual(parseSearchQuery("looking for shoes").words, ["looking", "shoes"]);
      assert.deepEqual(parseSearchQuery("lessons for people who paint").words, ["lessons", "people", "who", "paint"]);
    });

    it("leaves out a phrase that says when, not what: 'for the weekend', 'each month', 'the same day'", () => {
      assert.deepEqual(parseSearchQuery("rent a boat for the weekend").words, ["rent", "boat"], "not a weekend boat");
      assert.deepEqual(parseSearchQuery("we deliver flowers the same day").words, ["we", "deliver", "flowers"]);
      assert.deepEqual(parseSearchQuery("an app to track what i spend each month, please").words, ["app", "track", "what", "i", "spend", "please"]);
      // Time naming the subject stays: before a noun, without an opener, or alone.
      assert.deepEqual(parseSearchQuery("same day delivery").words, ["same", "day", "delivery"]);
      assert.deepEqual(parseSearchQuery("a club for night owls").words, ["night", "owls", "club"]);
      assert.deepEqual(parseSearchQuery("summer camp").words, ["summer", "camp"]);
      assert.deepEqual(parseSearchQuery("for the weekend").words, ["weekend"]);
    });

    it("reads 'a club for people who like chess' as a chess club", () => {
      assert.deepEqual(parseSearchQuery("a club for people who like chess").words, ["chess", "club"]);
      assert.deepEqual(parseSearchQuery("a group for people who enjoy running").words, ["running", "group"]);
      assert.deepEqual(parseSearchQuery("a site for fans who love birdwatching").words, ["birdwatching"]);
      // What the people do stays: it is the subject.
      assert.deepEqual(parseSearchQuery("a forum for people who restore old motorbikes").words, ["forum", "people", "who", "restore", "old", "motorbikes"]);
      assert.deepEqual(parseSearchQuery("people who like").words, ["people", "who", "like"], "nothing after it: as typed");
    });

    it("marks the words typed before an object: 'rent a boat', 'trace their ancestors'", () => {
      assert.deepEqual(parseSearchQuery("rent a boat for the weekend").beforeObject, ["rent"]);
      assert.deepEqual(parseSearchQuery("helping families trace their ancestors").beforeObject, ["trace"]);
      // Not framing ("find a"), not a word after a determiner ("a bakery"), not without an object.
      assert.deepEqual(parseSearchQuery("find a plumber").beforeObject, []);
      assert.deepEqual(parseSearchQuery("name for a bakery").beforeObject, []);
      assert.deepEqual(parseSearchQuery("boat rental").beforeObject, []);
    });
  });
});
