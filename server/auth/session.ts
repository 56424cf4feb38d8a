import { eq } from "drizzle-orm";
import { getServerSession } from "next-auth";
import { encode } from "next-auth/jwt";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { clock } from "@/server/clock";
import type { AuthenticatedUser } from "./credentials";
import type { PartnerRole } from "./partner-roles";
import { getAuthOptions, getAuthSecret, getSessionCookie, SESSION_MAX_AGE_SECONDS, tokenClaims } from "./options";
import { signInPath } from "./redirects";

// Session access for server components, server actions and the tRPC context.

export type { PartnerRole };

/** The signed-in user; partner staff carry their role in the partner (viewers only read). */
export type SessionUser = AuthenticatedUser & { partnerRole: PartnerRole | null };

/**
 * The signed-in user, or null. The JWT says who; the users row decides whether
 * they still may: a disabled or deleted user is signed out on their next request
 * and role/partner changes apply at once. Memoised per request.
 */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const session = await getServerSession(getAuthOptions());
  const id = session?.user.id;
  if (!id) return null;
  const [row] = await getDb()
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
    .where(eq(users.id, id))
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
});

/** Whether a valid session cookie is present, without a database read (public page headers). */
export async function hasSessionCookie(): Promise<boolean> {
  const session = await getServerSession(getAuthOptions());
  return Boolean(session?.user.id);
}

/** For pages behind sign-in: the user, or a redirect to /sign-in that comes back here. */
export async function requireSessionUser(returnTo: string): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(signInPath(returnTo));
  return user;
}

/**
 * Writes the same session cookie next-auth's credentials callback would, so the
 * sign-in form can be a plain server action (works without JavaScript).
 */
export async function startSession(user: AuthenticatedUser): Promise<void> {
  const cookie = getSessionCookie();
  const token = await encode({ token: tokenClaims(user), secret: getAuthSecret(), maxAge: SESSION_MAX_AGE_SECONDS });
  (await cookies()).set(cookie.name, token, {
    ...cookie.options,
    expires: new Date(clock.nowMs() + SESSION_MAX_AGE_SECONDS * 1000),
  });
}

export async function endSession(): Promise<void> {
  const cookie = getSessionCookie();
  (await cookies()).set(cookie.name, "", { ...cookie.options, maxAge: 0 });
}
