import type { NextAuthOptions } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsModule from "next-auth/providers/credentials";
import { getDb } from "@/db/client";
import { deriveKey } from "@/server/crypto";
import { getEnv } from "@/server/env";
import { clientIp } from "@/server/http/client-ip";
import { authenticateUser, signInRetryMessage, signInSchema, type SignedInUser } from "./credentials";

// next-auth v4 with JWT sessions. The token carries who the user is (id, role,
// partnerId) and the users row's session version; getSessionUser() re-reads the
// row on each request so a disabled user, a changed role or a bumped version
// ("sign out everywhere") takes effect immediately, not when the JWT expires.

export type UserRole = "partner" | "admin" | "customer";

// A CommonJS default export: Next's bundler unwraps it, Node's ESM loader (the
// integration tests read sessions through these options) hands over the module.
const CredentialsProvider = (CredentialsModule as unknown as { default?: typeof CredentialsModule }).default ?? CredentialsModule;

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name: string | null; role: UserRole; partnerId: string | null; sessionVersion: number };
  }
  interface User {
    role: UserRole;
    partnerId: string | null;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    role?: UserRole;
    partnerId?: string | null;
    /** users.session_version when the token was issued; tokens from before it existed have none (0). */
    sessionVersion?: number;
  }
}

/** Dashboard sessions last a working week; every request re-checks the user row anyway. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

export interface SessionCookie {
  name: string;
  options: { httpOnly: true; sameSite: "lax"; path: "/"; secure: boolean };
}

/**
 * Named explicitly (same names next-auth would pick) because the sign-in server
 * action writes this cookie itself; both must agree on name and flags.
 */
export function getSessionCookie(): SessionCookie {
  const secure = baseUrl().startsWith("https://");
  return {
    name: `${secure ? "__Secure-" : ""}next-auth.session-token`,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure },
  };
}

function baseUrl(): string {
  return process.env.NEXTAUTH_URL || getEnv().APP_URL;
}

/**
 * NEXTAUTH_SECRET comes from the environment (the start script sets it). Without
 * it, a key derived from SECRET_KEY keeps `next dev` by hand working and still
 * differs per installation.
 */
export function getAuthSecret(): string {
  return process.env.NEXTAUTH_SECRET || deriveKey("next-auth").toString("base64url");
}

/** The JWT claims of a signed-in user; shared by next-auth's callback and the sign-in action. */
export function tokenClaims(user: SignedInUser): JWT {
  return { sub: user.id, email: user.email, name: user.name, role: user.role, partnerId: user.partnerId, sessionVersion: user.sessionVersion };
}

let cached: NextAuthOptions | undefined;

/**
 * Built on first use, not at import: reading settings at import would run during
 * `next build` (which must not need SECRET_KEY or a database).
 */
export function getAuthOptions(): NextAuthOptions {
  if (cached) return cached;
  // next-auth builds its own redirect URLs from NEXTAUTH_URL; default it to APP_URL.
  process.env.NEXTAUTH_URL ||= getEnv().APP_URL;
  cached = {
    secret: getAuthSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    cookies: { sessionToken: getSessionCookie() },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      // Used by clients that POST to /api/auth/callback/credentials; the sign-in
      // page itself uses a server action calling the same authenticateUser().
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        async authorize(credentials, request) {
          const parsed = signInSchema.safeParse(credentials ?? {});
          if (!parsed.success) return null;
          const ip = clientIp(new Headers((request?.headers ?? {}) as Record<string, string>));
          const result = await authenticateUser(getDb(), parsed.data, ip);
          // next-auth shows a thrown message on its error page (and in its JSON answer).
          if (!result.ok && result.reason === "rate_limited") throw new Error(signInRetryMessage(result.retryAfterSeconds));
          return result.ok ? result.user : null;
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        // `user` is present only right after sign-in.
        return user ? { ...token, ...tokenClaims(user as SignedInUser) } : token;
      },
      session({ session, token }) {
        session.user = {
          id: token.sub ?? "",
          email: token.email ?? "",
          name: token.name ?? null,
          role: token.role ?? "customer",
          partnerId: token.partnerId ?? null,
          sessionVersion: token.sessionVersion ?? 0,
        };
        return session;
      },
    },
  };
  return cached;
}
