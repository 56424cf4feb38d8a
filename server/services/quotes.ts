import { sql, type SQL } from "drizzle-orm";
import { compiledStatement, executePrepared } from "@/db/compiled";
import { together } from "@/db/together";
import { rowFromJson } from "@/db/rows";
import { endingWith } from "@/db/safe-begin";
import type { Db } from "@/db/client";
import { quotes, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { QUOTE_TTL_MINUTES } from "@/server/contracts/orders";
import { AppError } from "@/server/errors";
import { newId } from "@/server/ids";
import { encodeSignedToken, offerClaims, openSignedToken, readOfferClaims, type OfferClaims } from "@/server/signed-token";
import { heldForOthersSql } from "./discovery";
import { normalizeDomainName } from "./inventory";

// Quotes: a firm price for ten minutes. The token handed out is self-contained
// and signed, so tampering is caught without a lookup; the quotes row is the
// reservation that discovery, quotes and orders honour (heldForOthersSql).

export const QUOTE_TTL_MS = QUOTE_TTL_MINUTES * 60_000;

export type QuoteRow = typeof quotes.$inferSelect;

/** What a quote token binds: always a partner's. */
export interface QuoteClaims extends OfferClaims {
  quoteId: string;
  partnerId: string;
}

const QUOTE_ID = /^qt_[0-9A-Za-z]{22}$/;

/** `qt_<id>.<claims>.<signature>` (server/signed-token.ts), keyed for quotes. */
export function encodeQuoteToken(claims: QuoteClaims): string {
  return encodeSignedToken("quotes", claims.quoteId, offerClaims(claims));
}

const invalidQuote = (message: string) =>
  new AppError("validation_error", `quote_id ${message}`, [{ path: "quote_id", message }]);

/**
 * Checks a token's signature and that it was issued to this partner, in this
 * environment, for this domain (400 validation_error otherwise), then its
 * expiry (422 quote_expired). Does not look at the database.
 */
export function verifyQuoteToken(
  token: string,
  expected: { partnerId: string; environment: Environment; domain: string },
): QuoteClaims {
  const opened = openSignedToken("quotes", token, QUOTE_ID);
  if (!opened.ok) {
    throw invalidQuote(opened.reason === "altered" ? "has been altered or was not issued by this service" : "is not a quote token from POST /quotes");
  }
  const offer = readOfferClaims(opened.claims);
  if (!offer || offer.partnerId === null) throw invalidQuote("is not a quote token from POST /quotes");
  if (offer.partnerId !== expected.partnerId || offer.environment !== expected.environment) {
    throw invalidQuote("was issued to another partner or environment");
  }
  if (offer.domain !== expected.domain) throw invalidQuote(`was issued for ${offer.domain}, not ${expected.domain}`);
  if (clock.nowMs() >= offer.expiresAt.getTime()) {
    throw new AppError("quote_expired", `quote expired at ${offer.expiresAt.toISOString()}; request a new quote`);
  }
  return { quoteId: opened.id, ...offer, partnerId: offer.partnerId };
}

/** A listing row locked for the rest of the caller's transaction. */
export interface LockedListing {
  id: string;
  name: string;
  status: "listed" | "reserved" | "sold" | "removed";
  priceCents: number;
  currency: string;
}

/**
 * Locks the listing `name` (FOR UPDATE) so quotes and orders on one domain run
 * one at a time; 404 when it is not in the environment's inventory. Callers
 * check holds in a later statement, whose snapshot sees what the previous
 * holder of the lock committed.
 */
export async function lockListing(db: Db, input: { environment: Environment; name: string }): Promise<LockedListing> {
  // Sent prepared (one parse and plan per connection): every quote and order starts here.
  const [row] = await executePrepared<Omit<LockedListing, "priceCents"> & { price_cents: string }>(db, sql`
    select id, name, status, price_cents, currency from domains where ${listingByName(input.environment, input.name)} for update`);
  if (!row) throw new AppError("not_found", `${input.name} is not listed`);
  // bigint arrives as text from the driver; money fits a double exactly (columns.ts).
  return { id: row.id, name: row.name, status: row.status, priceCents: Number(row.price_cents), currency: row.currency };
}

/** The listing `name` in an environment's inventory: the row lockListing locks. */
const listingByName = (environment: Environment, name: string): SQL =>
  sql`environment = ${environment} and name = ${name} and status <> 'removed'`;

/**
 * The id of the listing lockListing locks, as a subquery: for the reads sent together
 * with the lock (db/together.ts), which cannot wait for its answer.
 */
export function listingIdSql(environment: Environment, name: string): SQL {
  return sql`select id from domains where ${listingByName(environment, name)}`;
}

export function unavailable(name: string, status: LockedListing["status"]): AppError {
  return new AppError(
    "conflict",
    status === "sold" ? `${name} is already sold` : `${name} is reserved by another order or another partner's quote`,
  );
}

export interface CreateQuoteInput {
  partnerId: string;
  environment: Environment;
  domain: string;
}

export interface CreatedQuote {
  row: QuoteRow;
  token: string;
}

/**
 * Open (unexpired, unused) quotes a partner may hold per environment. Each one
 * reserves a name from everyone else for 10 minutes, so without a cap one key
 * could hold the whole inventory. Answered 429 with Retry-After: the wait until
 * the oldest open quote expires.
 */
export const MAX_OPEN_QUOTES = 1000;

function tooManyQuotes(firstExpiry: string | null, now: Date): AppError {
  const waitSeconds = firstExpiry ? Math.max(1, Math.ceil((new Date(firstExpiry).getTime() - now.getTime()) / 1000)) : 60;
  return new AppError(
    "rate_limited",
    `this credential's partner holds ${MAX_OPEN_QUOTES} open quotes in this environment, the most allowed; order or let some expire (the oldest in ${waitSeconds} s)`,
    undefined,
    { "retry-after": String(waitSeconds) },
  );
}

export async function createQuote(db: Db, input: CreateQuoteInput): Promise<CreatedQuote> {
  const name = normalizeDomainName(input.domain);
  return db.transaction(async (tx) => {
    const now = clock.now();
    // The lock, the hold check and the open-quote count in one round trip (the check
    // finds the listing by name and runs after the lock is granted).
    const [listing, [hold]] = await together(
      lockListing(tx, { environment: input.environment, name }),
      executePrepared<{ held: boolean; open: number; first_expiry: string | null }>(
        tx,
        sql`select ${heldForOthersSql(sql`l.id`, input.environment, input.partnerId)} as held, o.open, o.first_expiry
            from (${listingIdSql(input.environment, name)}) l,
              (select count(*)::int as open, min(expires_at)::text as first_expiry from (
              select expires_at from quotes where partner_id = ${input.partnerId} and environment = ${input.environment}
                and expires_at > ${now.toISOString()}::timestamptz and order_id is null
              order by expires_at limit ${MAX_OPEN_QUOTES}) q) o`,
      ),
    );
    if (listing.status !== "listed") throw unavailable(name, listing.status);
    if (hold?.held) throw unavailable(name, "reserved");
    if (hold && hold.open >= MAX_OPEN_QUOTES) throw tooManyQuotes(hold.first_expiry, now);
    // Issued now, after the lock was granted: a quote that waited for the lock still has
    // its whole time to live (the clock read above went out with the lock's statements).
    const issuedAt = clock.now();
    // The insert goes with the COMMIT (one round trip for both); the answer is made from its row.
    const inserted = quoteInsert(tx, {
      quote: {
        id: newId("quote", issuedAt.getTime()),
        partnerId: input.partnerId,
        environment: input.environment,
        domainId: listing.id,
        domain: name,
        salePriceCents: listing.priceCents,
        currency: listing.currency,
        expiresAt: new Date(issuedAt.getTime() + QUOTE_TTL_MS),
        createdAt: issuedAt,
      },
    });
    return endingWith(inserted, ([written]) => {
      if (!written) throw new Error("quote insert returned no row");
      const row = rowFromJson(quotes, written.quote);
      return { row, token: quoteToken(row) };
    });
  });
}

/** The quote's insert, compiled once and sent prepared (db/compiled.ts): one round trip, not two. */
const quoteInsert = compiledStatement<{ quote: typeof quotes.$inferInsert }, { quote: Record<string, unknown> }>(
  (db, p) => sql`with q as (${db.insert(quotes).values(p.quote).returning().getSQL()}) select row_to_json(q) as quote from q`,
);

export function quoteToken(row: QuoteRow): string {
  return encodeQuoteToken({
    quoteId: row.id,
    partnerId: row.partnerId,
    environment: row.environment,
    domain: row.domain,
    priceCents: row.salePriceCents,
    currency: row.currency,
    expiresAt: row.expiresAt,
  });
}

export function serializeQuote(quote: CreatedQuote) {
  return {
    quote_id: quote.token,
    domain: quote.row.domain,
    sale_price_cents: quote.row.salePriceCents,
    currency: quote.row.currency,
    expires_at: quote.row.expiresAt.toISOString(),
  };
}
