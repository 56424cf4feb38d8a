import { Placeholder, sql, type Query, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { compiledQuery } from "@/db/compiled";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";
import { extractBudget } from "@/server/search/budget";
import { FRAMING_WORDS } from "@/server/search/framing";
import { runSearch, type EngineParams, type EngineResult } from "@/server/search/engine";
import { tune } from "@/server/search/tune";
import { baseForms, isCompound } from "@/server/search/wordnet";
import { startSearchTimer } from "@/server/observability/metrics";
import { normalizeDomainName, type Listing } from "./inventory";

// Discovery reads of the inventory: keyword search, one listing's details,
// availability and pricing. Every query filters by the credential's environment.
//
// Availability invariant, shared with quotes and orders: a listing is available
// to partner P when its status is `listed`, no order other than a refunded or
// cancelled one exists for it, and no unexpired, unconverted quote of another
// partner holds it. P's own quote does not hide the domain from P.

export type VisibleStatus = "listed" | "reserved" | "sold";

/**
 * SQL condition "the listing `domainId` is held for someone other than `partnerId`":
 * an active order, or another partner's unexpired quote. Other services (quotes,
 * checkout) use the same rule so that discovery never promises what they refuse.
 */
export function heldForOthersSql(
  domainId: SQL | AnyPgColumn,
  environment: Environment | Placeholder,
  partnerId: string | Placeholder,
  /** The clock's now as ISO text (a placeholder in listingRead's compiled text). */
  now: string | Placeholder = clock.now().toISOString(),
): SQL {
  // The quote is found as the latest of the listing's live quotes, not by EXISTS: PostgreSQL drops
  // an EXISTS' ORDER BY, and a prepared statement's generic plan then seq-scans quotes whenever few
  // listings hold many quotes (a partner or an agent quoting the same names again and again):
  // 4.1 ms at 21k quotes on 12 listings. Ordered by the index's own columns, the backward index
  // scan is the only cheap plan: 0.1 ms (bench/HOT-PATH.md section 17).
  return sql`(exists (
      select 1 from orders o
      where o.domain_id = ${domainId} and o.environment = ${environment} and o.status not in ('REFUNDED', 'CANCELLED')
    ) or (
      select q.expires_at from quotes q
      where q.domain_id = ${domainId} and q.environment = ${environment} and q.expires_at > ${now}::timestamptz
        and q.order_id is null and q.partner_id <> ${partnerId}
      order by q.expires_at desc limit 1
    ) is not null)`;
}

// --- search ------------------------------------------------------------------------

export interface SearchParams {
  environment: Environment;
  partnerId: string;
  q: string;
  limit: number;
}

export interface ParsedQuery {
  /** The query as understood: lowercased, scheme, www and paths removed. */
  text: string;
  /** Distinct words, letters and digits only (safe inside to_tsquery). */
  words: string[];
  /** The words run together, as a label would be written. */
  compact: string;
  /** A TLD typed in the query ("pizza .io", "pizza.io"), else null. */
  tld: string | null;
  /** The full name the query names, when it names one. */
  exactName: string | null;
  /** Filler words left out of `words` ("the", "for"): a name holding them is a little closer to what was typed. */
  fillers: string[];
  /** Every typed word run together, fillers included ("thejustice"); equals `compact` without fillers. */
  phrase: string;
  /** Words typed before an object ("rent" in "rent a boat"); those that can be verbs are its verbs (conceptImportance). */
  beforeObject: string[];
}

export interface SearchHit {
  name: string;
  label: string;
  tld: string;
  status: "listed" | "reserved";
  available: boolean;
  priceCents: number;
  currency: string;
  vertical: string | null;
  score: number;
}

export interface SearchResults {
  query: string;
  hits: SearchHit[];
}

const MAX_WORDS = 8;
const MAX_WORD_LENGTH = 63;
/** Filler that says nothing about a name; dropped unless the query is nothing else. */
const STOP_WORDS = new Set(["a", "an", "the", "for", "of", "and", "or", "in", "on", "to", "with", "domain", "domains", "name", "names", "website", "site"]);
const TLD_PATTERN = /^[a-z][a-z0-9-]{1,62}(\.[a-z][a-z0-9-]{1,62})?$/;

/** Splits like tokenizeLabel: on anything but letters and digits, and between letters and digits. */
function splitWords(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u).filter(Boolean);
}

/**
 * The words of one token. An apostrophe joins rather than splits ("women's" -> womens, read as the
 * possessive it is; "kids'" -> kids), and so does the hyphen after a lone letter ("e-bike" -> ebike,
 * "t-shirts" -> tshirts): split there, a word of one letter would weigh as a subject of its own.
 */
function wordsOf(token: string): string[] {
  return splitWords(token.replace(/(?<=\p{L})['’](?=\p{L}|$)/gu, "").replace(/(?<![\p{L}\p{N}])(\p{L})-(?=\p{L}{2})/gu, "$1"));
}

/** Removes a URL scheme, credentials, `www.`, a port, a path, a query and a fragment from one token. */
function stripUrl(token: string): string {
  let t = token.replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  if (t !== token || /[/?#]/.test(t)) t = t.replace(/^[^/?#]*@/, "").replace(/[/?#].*$/, "");
  return t.replace(/^www\./, "").replace(/:\d+$/, "");
}

export function parseSearchQuery(q: string): ParsedQuery {
  // "24/7" is a number of a name (247plumber), not a host and a path.
  const tokens = q.toLowerCase().trim().split(/[\s,;]+/).map((t) => (/^\d{1,2}\/\d{1,2}$/.test(t) ? t.replace("/", "") : stripUrl(t))).filter(Boolean);
  let tld: string | null = null;
  let exactName: string | null = null;
  const wordSource: string[] = [];
  for (const token of tokens) {
    if (token.startsWith(".")) {
      const candidate = token.slice(1).replace(/\.$/, "");
      if (TLD_PATTERN.test(candidate)) {
        tld = candidate;
        continue;
      }
    }
    const dot = token.indexOf(".");
    const rest = dot > 0 ? token.slice(dot + 1).replace(/\.$/, "") : "";
    if (dot > 0 && rest && TLD_PATTERN.test(rest)) {
      tld = rest;
      wordSource.push(token.slice(0, dot));
      if (tokens.length === 1) exactName = tryNormalize(token);
      continue;
    }
    wordSource.push(token);
  }
  const typed = wordSource.flatMap(wordsOf).map((w) => w.slice(0, MAX_WORD_LENGTH));
  const beforeObject = beforeObjects(typed);
  const all = [...new Set(headLast(withoutWhoLike(withoutWhen(typed))))];
  const meaningful = all.filter((w) => !STOP_WORDS.has(w));
  const words = capWords(meaningful.length > 0 ? meaningful : all);
  const compact = words.join("").slice(0, MAX_WORD_LENGTH);
  if (!exactName && tld && compact) exactName = tryNormalize(`${compact}.${tld}`);
  const text = [...wordSource, ...(tld && !exactName ? [`.${tld}`] : [])].join(" ");
  const fillers = meaningful.length > 0 ? all.filter((w) => STOP_WORDS.has(w)).slice(0, MAX_WORDS) : [];
  const phrase = fillers.length > 0 ? [...new Set(typed)].join("").slice(0, MAX_WORD_LENGTH) : compact;
  return { text: exactName ?? text, words, compact, tld, exactName, fillers, phrase, beforeObject };
}

/** TUNE_VERBS=0: no word is read as a verb before its object (the benchmark's before). */
const VERBS = tune("VERBS", 1) === 1;

/**
 * The words typed before an object: directly before a determiner or possessive and a word ("rent a
 * boat", "trace their ancestors"); not a framing or stop word ("find a", "for a"), and not after a
 * determiner ("a bakery", "name my": a noun may stand there). conceptImportance reads those WordNet
 * can read as a verb as the verb of the object.
 */
function beforeObjects(words: string[]): string[] {
  if (!VERBS) return [];
  return words.filter((w, i) => {
    const next = words[i + 1];
    const before = words[i - 1];
    if (next === undefined || !DETERMINERS.has(next) || words[i + 2] === undefined) return false;
    return !STOP_WORDS.has(w) && !FRAMING_WORDS.has(w) && !DETERMINERS.has(w) && (before === undefined || !DETERMINERS.has(before));
  });
}

/** Nouns of time, which say when, not what, after one of WHEN_OPENERS. */
const TIME_WORDS = new Set([
  "day", "days", "night", "nights", "week", "weeks", "weekend", "weekends", "month", "months", "year", "years", "hour", "hours",
  "morning", "mornings", "evening", "evenings", "afternoon", "afternoons", "summer", "winter", "autumn", "season",
]);
/** Words that open a phrase of time ("for the weekend", "each month", "the same day", "at night"). */
const WHEN_OPENERS = new Set(["for", "each", "every", "per", "this", "next", "same", "at", "over", "during", "all", "whole"]);
/** TUNE_WHEN=0: a phrase of time stays in the query (the benchmark's before). */
const WHEN = tune("WHEN", 1) === 1;

/**
 * The query without a phrase that says when ("rent a boat for the weekend", "what i spend each month",
 * "flowers delivered the same day"): the subject is the boat, not the weekend, and moved before its
 * head by headLast "weekend" would even weigh above "boat". Only a phrase that ends the query or a
 * clause (the next word a stop or framing word): "for night owls" and "same day delivery" stay as typed.
 */
function withoutWhen(words: string[]): string[] {
  if (!WHEN) return words;
  const out = [...words];
  for (let i = out.length - 1; i > 0; i--) {
    const next = out[i + 1];
    if (!TIME_WORDS.has(out[i] as string) || !(next === undefined || STOP_WORDS.has(next) || FRAMING_WORDS.has(next))) continue;
    let start = i - 1;
    while (start > 0 && DETERMINERS.has(out[start] as string)) start--;
    if (!WHEN_OPENERS.has(out[start] as string)) continue;
    // "the same day": the determiner before the opener goes too.
    while (start > 0 && DETERMINERS.has(out[start - 1] as string)) start--;
    const rest = [...out.slice(0, start), ...out.slice(i + 1)];
    if (!rest.some((w) => !STOP_WORDS.has(w) && !FRAMING_WORDS.has(w))) continue;
    out.splice(start, i + 1 - start);
    i = start;
  }
  return out;
}

/** Who a thing is for, in "people who like X": the X is what it is about. */
const FANS = new Set(["people", "those", "folks", "anyone", "everyone", "fans", "lovers", "someone", "others"]);
/** The verbs of liking in "people who like X". */
const LIKING = new Set(["like", "likes", "love", "loves", "enjoy", "enjoys"]);
/** TUNE_WHO_LIKE=0: "for people who like X" stays as typed (the twentieth session's). */
const WHO_LIKE = tune("WHO_LIKE", 1) === 1;

/**
 * "a club for people who like chess" is a chess club: "people who like" says only that the thing is
 * for fans of what follows, so it leaves the query and the thing is for chess (headLast then puts
 * chess before club). "people who restore old motorbikes" keeps its verb: it says what they do.
 */
function withoutWhoLike(words: string[]): string[] {
  if (!WHO_LIKE) return words;
  for (let i = 0; i + 3 < words.length; i++) {
    if (FANS.has(words[i] as string) && words[i + 1] === "who" && LIKING.has(words[i + 2] as string)) return [...words.slice(0, i), ...words.slice(i + 3)];
  }
  return words;
}

/** Words that may open the phrase after "for" and are left out when it moves ("a groomer for my dogs"). */
const DETERMINERS = new Set(["a", "an", "the", "my", "our", "your", "his", "her", "their"]);
/** The longest phrase after "for" that moves before its head ("a broker for home insurance"). */
const FOR_PHRASE_WORDS = 3;
/** TUNE_HEAD_LAST=0: "X for Y" keeps its order (the benchmark's before). */
const HEAD_LAST = tune("HEAD_LAST", 1) === 1;

/**
 * "a groomer for dogs" is a dog groomer, "broker for insurance" an insurance broker: the noun
 * before "for" is the head, and the words after it say what it is for. English puts the head last
 * in a compound, and the engine reads it there (the last subject word counts less, a name holding
 * only the head answers the query less), as do names ("insurancebroker"). So the phrase after the
 * last "for" moves before its head, when the head is a subject word (not "looking for", "name for")
 * and the phrase is one to three words, none of them a stop or framing word after its determiners
 * ("lessons for people who paint" and "looking for a plumber" keep their order).
 */
function headLast(words: string[]): string[] {
  if (!HEAD_LAST) return words;
  const at = words.lastIndexOf("for");
  const head = words[at - 1];
  if (at < 1 || head === undefined || STOP_WORDS.has(head) || FRAMING_WORDS.has(head) || DETERMINERS.has(head)) return words;
  let from = at + 1;
  while (DETERMINERS.has(words[from] ?? "")) from++;
  const phrase = words.slice(from);
  if (phrase.length === 0 || phrase.length > FOR_PHRASE_WORDS || phrase.some((w) => STOP_WORDS.has(w) || FRAMING_WORDS.has(w) || DETERMINERS.has(w))) return words;
  // A compound stays whole: "spare parts for cars" is car spare parts.
  const before = words[at - 2];
  const start = before !== undefined && [head, ...baseForms(head).map((b) => b.lemma)].some((h) => isCompound(before, h)) ? at - 2 : at - 1;
  return [...words.slice(0, start), ...phrase, ...words.slice(start, at)];
}

/**
 * At most MAX_WORDS words. A long request puts its framing first and its subject last
 * ("can you find me a domain for a shop selling second hand books"), so the framing
 * words (FRAMING_WORDS) go first, from the front, before any word is cut from the end.
 */
function capWords(words: string[]): string[] {
  let toDrop = words.length - MAX_WORDS;
  const kept: string[] = [];
  for (const word of words) {
    if (toDrop > 0 && FRAMING_WORDS.has(word)) toDrop--;
    else kept.push(word);
  }
  return kept.slice(0, MAX_WORDS);
}

function tryNormalize(name: string): string | null {
  try {
    return normalizeDomainName(name);
  } catch {
    return null;
  }
}

/**
 * Hybrid search (server/search/engine.ts): keyword, trigram and semantic legs in
 * parallel, fused by reciprocal rank, reranked on exact match, word coverage,
 * typed TLD, length, price fit (a budget typed in the query) and diversity, cut
 * at a score floor. Then one read of the availability rule for the few hits.
 */
export async function searchDomains(db: Db, params: SearchParams): Promise<SearchResults> {
  const stop = startSearchTimer(params.environment);
  try {
    return await findDomains(db, params);
  } finally {
    stop();
  }
}

/**
 * The engine on a query as typed: a budget in it taken out (budget.ts), the rest parsed
 * (parseSearchQuery). The service, the search benchmarks (one leg or all) and explain.ts share it.
 */
export async function runQuery(db: Db, q: string, engine: EngineParams): Promise<EngineResult & { parsed: ParsedQuery }> {
  const budget = extractBudget(q);
  const parsed = parseSearchQuery(budget.text);
  return { ...(await runSearch(db, { ...parsed, maxPriceCents: budget.maxCents }, engine)), parsed };
}

async function findDomains(db: Db, params: SearchParams): Promise<SearchResults> {
  const { parsed, hits } = await runQuery(db, params.q, { environment: params.environment, limit: params.limit });
  if (hits.length === 0) return { query: parsed.text, hits: [] };
  const ids = hits.map((h) => h.id);
  const heldRows = await db.execute<{ id: string; held: boolean }>(
    sql`select d.id, ${heldForOthersSql(sql`d.id`, params.environment, params.partnerId)} as held
      from domains d where d.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
  );
  const held = new Map(heldRows.map((r) => [r.id, r.held]));
  return {
    query: parsed.text,
    hits: hits.map((row) => ({
      name: row.name,
      label: row.label,
      tld: row.tld,
      status: held.get(row.id) ? "reserved" : "listed",
      available: !held.get(row.id),
      priceCents: toCents(row.price_cents),
      currency: row.currency,
      vertical: row.vertical,
      score: Math.round(row.score * 1000) / 1000,
    })),
  };
}

/** bigint columns arrive as strings from raw SQL; money stays an exact integer. */
function toCents(value: string | number): number {
  const cents = Number(value);
  if (!Number.isSafeInteger(cents)) throw new Error(`price ${value} is not a safe integer`);
  return cents;
}

export function serializeSearchResults(results: SearchResults) {
  return {
    query: results.query,
    results: results.hits.map((hit) => ({
      domain: hit.name,
      available: hit.available,
      status: hit.status,
      sale_price_cents: hit.priceCents,
      currency: hit.currency,
      tld: hit.tld,
      vertical: hit.vertical,
      score: hit.score,
    })),
  };
}

// --- one listing -------------------------------------------------------------------

export interface ListingLookup {
  environment: Environment;
  partnerId: string;
  /** Already normalised (the contracts do it), or raw: normalised again here. */
  domain: string;
}

export interface ListingView {
  name: string;
  label: string;
  tld: string;
  status: VisibleStatus;
  available: boolean;
  priceCents: number;
  floorPriceCents: number | null;
  currency: string;
  tokens: string;
  vertical: string | null;
  description: string | null;
  registeredYear: number | null;
}

/** The listing as the partner sees it (removed listings do not exist), in one query. */
async function findListing(db: Db, input: ListingLookup): Promise<ListingView | undefined> {
  const [row] = await db.execute<ListingRow>(listingSql(input));
  return listingFromRow(row);
}

/**
 * findListing's statement: at most one row (ListingRow). GET /availability sends it in
 * the signing gate's own round trip (RouteOptions.read in server/http/partner-route.ts).
 */
export function listingSql(input: ListingLookup): SQL {
  return listingStatement(input.environment, input.partnerId, normalizeDomainName(input.domain), clock.now().toISOString());
}

// Written as SQL rather than through the select builder: GET /availability runs it
// on every call, and building the select cost more CPU than the statement itself.
function listingStatement(environment: Environment | Placeholder, partnerId: string | Placeholder, name: string | Placeholder, now: string | Placeholder): SQL {
  return sql`
    select d.name, d.label, d.tld, d.status, d.price_cents as "priceCents", d.floor_price_cents as "floorPriceCents",
           d.currency, d.tokens, d.vertical, d.description, d.registered_year as "registeredYear",
           ${heldForOthersSql(sql`d.id`, environment, partnerId, now)} as held
    from domains d
    where d.environment = ${environment} and d.name = ${name} and d.status <> 'removed'`;
}

/** listingSql's text, compiled once (db/compiled.ts). */
const listingQuery = compiledQuery<{ l: { environment: Environment; partnerId: string; name: string; now: string } }>((p) =>
  listingStatement(p.l.environment, p.l.partnerId, p.l.name, p.l.now),
);

/**
 * listingSql as text and values, for a name already normalised (the contract's
 * domainNameInput did it): the text is compiled once, so a call only fills in four values.
 * GET /availability sends it in the signing gate's round trip on every request.
 */
export function listingRead(input: { environment: Environment; partnerId: string; name: string }): Query {
  return listingQuery({ l: { environment: input.environment, partnerId: input.partnerId, name: input.name, now: clock.now().toISOString() } });
}

/** listingSql's row (bigint money as text, or as a JSON number when read through row_to_json) as the partner sees it. */
export function listingFromRow(row: ListingRow | null | undefined): ListingView | undefined {
  if (!row) return undefined;
  const { held, status, priceCents, floorPriceCents, ...rest } = row;
  const visible: VisibleStatus = status === "sold" ? "sold" : status === "reserved" || held ? "reserved" : "listed";
  return {
    ...rest,
    // bigint columns arrive as text from raw SQL; the schema reads them as numbers (money(), mode "number").
    priceCents: Number(priceCents),
    floorPriceCents: floorPriceCents === null ? null : Number(floorPriceCents),
    status: visible,
    available: visible === "listed",
  };
}

export type ListingRow = Omit<ListingView, "status" | "available" | "priceCents" | "floorPriceCents"> & {
  status: Listing["status"];
  held: boolean;
  priceCents: string | number;
  floorPriceCents: string | number | null;
} & Record<string, unknown>;

export async function getDomainDetails(db: Db, input: ListingLookup): Promise<ListingView> {
  const listing = await findListing(db, input);
  if (!listing) throw new AppError("not_found", `${normalizeDomainName(input.domain)} is not listed`);
  return listing;
}

export interface AvailabilityView {
  name: string;
  /** Null when the domain is not in the environment's inventory (never listed, or removed). */
  listing: ListingView | null;
}

/** Never throws not_found: an unlisted domain is simply unavailable. */
export async function getAvailability(db: Db, input: ListingLookup): Promise<AvailabilityView> {
  const [row] = await db.execute<ListingRow>(listingSql(input));
  return availabilityFromRow(input.domain, row);
}

/** getAvailability from listingSql's row, already read (GET /availability reads it in the gate's round trip). */
export function availabilityFromRow(domain: string, row: ListingRow | null | undefined, options: { normalized?: boolean } = {}): AvailabilityView {
  return { name: options.normalized ? domain : normalizeDomainName(domain), listing: listingFromRow(row) ?? null };
}

/** Prices of a listing on the market; a sold, removed or unknown domain is not_found. */
export async function getPricing(db: Db, input: ListingLookup): Promise<ListingView> {
  const listing = await findListing(db, input);
  if (!listing || listing.status === "sold") {
    throw new AppError("not_found", `${normalizeDomainName(input.domain)} is not listed`);
  }
  return listing;
}

/** Prices are shown while the listing is on the market, hidden once sold. */
function onMarket(listing: ListingView): boolean {
  return listing.status !== "sold";
}

export function serializeDomainDetails(listing: ListingView) {
  const shown = onMarket(listing);
  return {
    domain: listing.name,
    available: listing.available,
    status: listing.status,
    sale_price_cents: shown ? listing.priceCents : null,
    floor_price_cents: shown ? listing.floorPriceCents : null,
    currency: listing.currency,
    label: listing.label,
    tld: listing.tld,
    length: listing.label.length,
    keywords: listing.tokens.split(" ").filter(Boolean),
    vertical: listing.vertical,
    description: listing.description,
    registered_year: listing.registeredYear,
  };
}

export function serializeAvailability(view: AvailabilityView) {
  const { listing } = view;
  const shown = listing !== null && onMarket(listing);
  return {
    domain: view.name,
    available: listing?.available ?? false,
    status: listing?.status ?? ("unlisted" as const),
    sale_price_cents: shown ? listing.priceCents : null,
    currency: shown ? listing.currency : null,
  };
}

export function serializePricing(listing: ListingView) {
  return {
    domain: listing.name,
    available: listing.available,
    sale_price_cents: listing.priceCents,
    floor_price_cents: listing.floorPriceCents,
    currency: listing.currency,
  };
}
