import { and, eq } from "drizzle-orm";
import { getServerSession } from "next-auth";
import { encode } from "next-auth/jwt";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb, type Db } from "@/db/client";
import { users } from "@/db/schema";
import { clock } from "@/server/clock";
import type { AuthenticatedUser, SignedInUser } from "./credentials";
import type { PartnerRole } from "./partner-roles";
import { getAuthOptions, getAuthSecret, getSessionCookie, SESSION_MAX_AGE_SECONDS, tokenClaims } from "./options";
import { signInPath } from "./redirects";

// Session access for server components, server actions and the tRPC context.

export type { PartnerRole };

/** The signed-in user; partner staff carry their role in the partner (viewers only read). */
export type SessionUser = AuthenticatedUser & { partnerRole: PartnerRole | null };

/**
 * The signed-in user, or null. The JWT says who; the users row decides whether
 * they still may: a disabled or deleted user, or a token older than the row's
 * session version (sign out everywhere), is signed out on their next request,
 * and role/partner changes apply at once. Memoised per request.
 */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const [headerList, jar] = await Promise.all([headers(), cookies()]);
  return sessionUserFor(getDb(), {
    headers: Object.fromEntries(headerList),
    cookies: Object.fromEntries(jar.getAll().map((c) => [c.name, c.value])),
  });
});

/** A request as next-auth reads it: its headers and its cookies by name. */
export interface SessionRequest {
  headers: Record<string, string>;
  cookies: Record<string, string>;
}

// getServerSession's (req, res, options) form: the same decoding and callbacks
// as its App Router form, but the request is an argument, so tests can hand it
// a cookie. Cookies it would refresh are dropped, as the App Router form does.
const ignoredResponse = { getHeader: () => undefined, setHeader: () => undefined, setCookie: () => undefined };

/** The user a request's session cookie names, checked against the users row in one SELECT. */
export async function sessionUserFor(db: Db, request: SessionRequest): Promise<SessionUser | null> {
  const session = await getServerSession(request as never, ignoredResponse as never, getAuthOptions());
  const id = session?.user.id;
  if (!id) return null;
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      partnerId: users.partnerId,
      partnerRole: users.partnerRole,
      disabledAt: users.disabledAt,
    })
    .from(users)
    // A token issued before the version was bumped finds no row.
    .where(and(eq(users.id, id), eq(users.sessionVersion, session.user.sessionVersion)))
    .limit(1);
  if (!row || row.disabledAt) return null;
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    partnerId: row.partnerId,
    partnerRole: row.role === "partner" ? row.partnerRole : null,
  };
}

/**
 * Whether a valid session cookie is present, without a database read: public
 * page headers choose "Dashboard" over "Sign in" with it. A signed-out-everywhere
 * cookie still counts here; every page and procedure behind it asks getSessionUser.
 */
export async function hasSessionCookie(): Promise<boolean> {
  // The cookie jar first: it makes the page dynamic before any setting is read, so
  // `next build` prerenders nothing that needs SECRET_KEY, and a visitor without the
  // cookie costs no JWT decode.
  // (next-auth splits a token too large for one cookie into name.0, name.1, ...)
  const jar = (await cookies()).getAll();
  const { name } = getSessionCookie();
  if (!jar.some((c) => c.name === name || c.name.startsWith(`${name}.`))) return false;
  const session = await getServerSession(getAuthOptions());
  return Boolean(session?.user.id);
}

/** For pages behind sign-in: the user, or a redirect to /sign-in that comes back here. */
export async function requireSessionUser(returnTo: string): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(signInPath(returnTo));
  return user;
}

/** The session cookie's value for a user: the JWT next-auth's credentials callback would issue. */
export function encodeSessionToken(user: SignedInUser): Promise<string> {
  return encode({ token: tokenClaims(user), secret: getAuthSecret(), maxAge: SESSION_MAX_AGE_SECONDS });
}

/**
 * Writes the same session cookie next-auth's credentials callback would, so the
 * sign-in form can be a plain server action (works without JavaScript).
 */
export async function startSession(user: SignedInUser): Promise<void> {
  const cookie = getSessionCookie();
  const token = await encodeSessionToken(user);
  (await cookies()).set(cookie.name, token, {
    ...cookie.options,
    expires: new Date(clock.nowMs() + SESSION_MAX_AGE_SECONDS * 1000),
  });
}

export async function endSession(): Promise<void> {
  const cookie = getSessionCookie();
  (await cookies()).set(cookie.name, "", { ...cookie.options, maxAge: 0 });
}
