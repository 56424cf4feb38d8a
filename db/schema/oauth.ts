import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt } from "./columns";
import { users } from "./partners";

/** Dynamically registered public clients (RFC 7591); no secrets exist. */
export const oauthClients = pgTable("oauth_clients", {
  id: text().primaryKey(), // the client_id
  clientName: text(),
  redirectUris: text().array().notNull(),
  metadata: jsonb().notNull().default({}),
  createdAt: createdAt(),
  revokedAt: at(),
});

/** Authorization codes, stored only as SHA-256 hashes; single use, 60 s. */
export const oauthCodes = pgTable("oauth_codes", {
  codeHash: text().primaryKey(),
  clientId: text()
    .notNull()
    .references(() => oauthClients.id),
  userId: text()
    .notNull()
    .references(() => users.id),
  redirectUri: text().notNull(),
  codeChallenge: text().notNull(),
  scope: text().notNull(),
  resource: text(),
  expiresAt: at().notNull(),
  usedAt: at(),
  createdAt: createdAt(),
});

/**
 * Access and refresh tokens, stored as SHA-256 hashes. A family is every token
 * descended from one authorization code; reuse of a rotated refresh token or a
 * replayed code revokes the whole family.
 */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    id: text().primaryKey(),
    tokenHash: text().notNull().unique(),
    kind: text().notNull(), // access | refresh
    familyId: text().notNull(),
    codeHash: text(),
    clientId: text()
      .notNull()
      .references(() => oauthClients.id),
    userId: text()
      .notNull()
      .references(() => users.id),
    scope: text().notNull(),
    resource: text(),
    expiresAt: at().notNull(),
    rotatedAt: at(),
    revokedAt: at(),
    createdAt: createdAt(),
  },
  // codeHash: a replayed authorization code revokes the tokens it issued, found by this index.
  (t) => [index().on(t.familyId), index().on(t.userId), index().on(t.clientId), index().on(t.codeHash)],
);
