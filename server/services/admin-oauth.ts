import { and, desc, eq, ilike, inArray, isNull, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oauthClients, oauthTokens, users } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";

// OAuth clients as staff see them (dynamic registration, RFC 7591): a searchable
// list newest first, and one client's grants by user. Revocation itself is
// revokeOAuthAccess (server/oauth/revoke.ts), the service of oauth:revoke.
//
// A grant is a token family (one consent); it is active while it holds a refresh
// token that is neither revoked, rotated nor expired. Access tokens are opaque
// and their use is not logged, so "last used" is the newest token issued (the
// consent or the last refresh), the latest moment the client is known to have
// come back.

const CLIENT_ID = /^oc_[0-9A-Za-z]{22}$/;

const liveRefresh = (now: Date) =>
  sql`${oauthTokens.kind} = 'refresh' and ${oauthTokens.revokedAt} is null and ${oauthTokens.rotatedAt} is null and ${oauthTokens.expiresAt} > ${now.toISOString()}::timestamptz`;
const liveToken = (now: Date) => sql`${oauthTokens.revokedAt} is null and ${oauthTokens.rotatedAt} is null and ${oauthTokens.expiresAt} > ${now.toISOString()}::timestamptz`;

export interface OAuthClientFilters {
  q?: string;
  status?: "active" | "revoked";
  cursor?: string | null;
  limit: number;
}

export async function listOAuthClientsForStaff(db: Db, input: OAuthClientFilters) {
  if (input.cursor && !CLIENT_ID.test(input.cursor)) throw new AppError("validation_error", "cursor is not an OAuth client id of this listing");
  const term = input.q ? `%${input.q.replace(/[%_\\]/g, "\\$&")}%` : undefined;
  const filters: (SQL | undefined)[] = [
    term
      ? or(ilike(oauthClients.clientName, term), ilike(oauthClients.id, term), sql`array_to_string(${oauthClients.redirectUris}, ' ') ilike ${term}`)
      : undefined,
    input.status === "active" ? isNull(oauthClients.revokedAt) : input.status === "revoked" ? isNotNull(oauthClients.revokedAt) : undefined,
    input.cursor ? lt(oauthClients.id, input.cursor) : undefined,
  ];
  const rows = await db
    .select()
    .from(oauthClients)
    .where(and(...filters))
    .orderBy(desc(oauthClients.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const now = clock.now();
  // Figures for this page only, by the client_id index of oauth_tokens.
  const stats = page.length
    ? await db
        .select({
          clientId: oauthTokens.clientId,
          activeGrants: sql<number>`(count(distinct ${oauthTokens.familyId}) filter (where ${liveRefresh(now)}))::int`,
          activeUsers: sql<number>`(count(distinct ${oauthTokens.userId}) filter (where ${liveRefresh(now)}))::int`,
          activeTokens: sql<number>`(count(*) filter (where ${liveToken(now)}))::int`,
          lastIssuedAt: sql<Date | null>`max(${oauthTokens.createdAt})`.mapWith(oauthTokens.createdAt),
        })
        .from(oauthTokens)
        .where(inArray(oauthTokens.clientId, page.map((c) => c.id)))
        .groupBy(oauthTokens.clientId)
    : [];
  const byClient = new Map(stats.map((s) => [s.clientId, s]));
  return {
    clients: page.map((c) => {
      const s = byClient.get(c.id);
      return {
        id: c.id,
        name: c.clientName,
        redirectUris: c.redirectUris,
        createdAt: c.createdAt.toISOString(),
        revokedAt: c.revokedAt?.toISOString() ?? null,
        activeGrants: s?.activeGrants ?? 0,
        activeUsers: s?.activeUsers ?? 0,
        activeTokens: s?.activeTokens ?? 0,
        lastUsedAt: s?.lastIssuedAt?.toISOString() ?? null,
      };
    }),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** At most this many users on a client's page, the most recently active first. */
const GRANT_USERS = 200;

/** One client and its grants, one row per user: scopes, first consent, last refresh, when access ends. */
export async function getOAuthClientForStaff(db: Db, clientId: string) {
  const [client] = await db.select().from(oauthClients).where(eq(oauthClients.id, clientId));
  if (!client) throw new AppError("not_found", `OAuth client ${clientId} not found`);
  const now = clock.now();
  const grants = await db
    .select({
      userId: oauthTokens.userId,
      email: users.email,
      scopes: sql<string[]>`array_agg(distinct ${oauthTokens.scope}) filter (where ${liveToken(now)})`,
      grants: sql<number>`(count(distinct ${oauthTokens.familyId}))::int`,
      activeGrants: sql<number>`(count(distinct ${oauthTokens.familyId}) filter (where ${liveRefresh(now)}))::int`,
      activeTokens: sql<number>`(count(*) filter (where ${liveToken(now)}))::int`,
      issuedAt: sql<Date>`min(${oauthTokens.createdAt})`.mapWith(oauthTokens.createdAt),
      lastRefreshAt: sql<Date>`max(${oauthTokens.createdAt})`.mapWith(oauthTokens.createdAt),
      expiresAt: sql<Date | null>`max(${oauthTokens.expiresAt}) filter (where ${liveRefresh(now)})`.mapWith(oauthTokens.expiresAt),
      revokedAt: sql<Date | null>`max(${oauthTokens.revokedAt})`.mapWith(oauthTokens.revokedAt),
    })
    .from(oauthTokens)
    .innerJoin(users, eq(users.id, oauthTokens.userId))
    .where(eq(oauthTokens.clientId, clientId))
    .groupBy(oauthTokens.userId, users.email)
    .orderBy(sql`max(${oauthTokens.createdAt}) desc`)
    .limit(GRANT_USERS);
  const metadata = client.metadata as { scope?: string; client_uri?: string; software_id?: string; software_version?: string };
  return {
    client: {
      id: client.id,
      name: client.clientName,
      redirectUris: client.redirectUris,
      scope: metadata.scope ?? null,
      clientUri: metadata.client_uri ?? null,
      software: metadata.software_id ? [metadata.software_id, metadata.software_version].filter(Boolean).join(" ") : null,
      createdAt: client.createdAt.toISOString(),
      revokedAt: client.revokedAt?.toISOString() ?? null,
    },
    users: grants.map((g) => ({
      userId: g.userId,
      email: g.email,
      scopes: [...new Set((g.scopes ?? []).flatMap((s) => s.split(" ")))].sort(),
      grants: g.grants,
      activeGrants: g.activeGrants,
      activeTokens: g.activeTokens,
      issuedAt: g.issuedAt.toISOString(),
      lastRefreshAt: g.lastRefreshAt.toISOString(),
      expiresAt: g.expiresAt?.toISOString() ?? null,
      lastRevokedAt: g.revokedAt?.toISOString() ?? null,
    })),
    truncated: grants.length === GRANT_USERS,
  };
}
