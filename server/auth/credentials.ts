import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { NUL_MESSAGE, withoutNul } from "@/server/contracts/common";
import { takeBuckets } from "@/server/oauth/rate-limit";
import { hashPassword, passwordNeedsRehash, verifyPassword } from "@/server/crypto";

// Email + password check behind every sign-in path (the sign-in page's server
// action and next-auth's credentials endpoint).

export const signInSchema = z.object({
  email: z.string().trim().toLowerCase().max(320).pipe(z.email()),
  password: z.string().min(1).max(1024),
});

export type SignInInput = z.infer<typeof signInSchema>;

/** The marketplace sign-up form (app/sign-up/actions.ts). */
export const signUpSchema = z.object({
  name: z.string().trim().max(120).refine(withoutNul, NUL_MESSAGE),
  email: z.string().trim().toLowerCase().max(320).pipe(z.email()),
  password: z.string().min(8, "at least 8 characters").max(1024),
});

export interface AuthenticatedUser {
  id: string;
  email: string;
  name: string | null;
  role: "partner" | "admin" | "customer";
  partnerId: string | null;
}

/**
 * A user being signed in: who they are plus the users row's session version,
 * which goes into the JWT so that bumping it ends every session issued before.
 */
export type SignedInUser = AuthenticatedUser & { sessionVersion: number };

export type AuthenticateResult =
  | { ok: true; user: SignedInUser }
  | { ok: false; reason: "invalid_credentials" | "disabled" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/**
 * Sign-in attempts, per account and per client address, before any password is
 * checked: a guesser gets 10 tries per account and 30 per address every 15
 * minutes, whichever path (the page's action or next-auth's endpoint) it uses.
 */
export const SIGN_IN_LIMITS = { perAccount: 10, perIp: 30, periodMs: 15 * 60_000 } as const;

/** "Too many sign-in attempts. Try again in 3 minutes." */
export function signInRetryMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

async function takeSignInAttempt(db: Db, email: string, ip: string): Promise<number> {
  const { perAccount, perIp, periodMs } = SIGN_IN_LIMITS;
  const outcome = await takeBuckets(db, [
    { key: `sign-in:account:${email}`, limit: perAccount, periodMs },
    { key: `sign-in:ip:${ip}`, limit: perIp, periodMs },
  ]);
  return outcome.retryAfterSeconds;
}

// An unknown email still pays for one scrypt run, so response time does not
// reveal which emails have accounts.
let dummyHash: Promise<string> | undefined;

export async function authenticateUser(db: Db, input: SignInInput, ip: string): Promise<AuthenticateResult> {
  const retryAfterSeconds = await takeSignInAttempt(db, input.email.toLowerCase(), ip);
  if (retryAfterSeconds > 0) return { ok: false, reason: "rate_limited", retryAfterSeconds };
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      partnerId: users.partnerId,
      passwordHash: users.passwordHash,
      disabledAt: users.disabledAt,
      sessionVersion: users.sessionVersion,
    })
    .from(users)
    .where(sql`lower(${users.email}) = ${input.email.toLowerCase()}`)
    .limit(1);
  if (!row) {
    dummyHash ??= hashPassword("not-a-real-password");
    await verifyPassword(input.password, await dummyHash);
    return { ok: false, reason: "invalid_credentials" };
  }
  if (!(await verifyPassword(input.password, row.passwordHash))) return { ok: false, reason: "invalid_credentials" };
  if (passwordNeedsRehash(row.passwordHash)) {
    // The password is known right now: store it under today's parameters.
    await db.update(users).set({ passwordHash: await hashPassword(input.password) }).where(eq(users.id, row.id));
  }
  // Said only after the password matched, so it reveals nothing to a guesser.
  if (row.disabledAt) return { ok: false, reason: "disabled" };
  return {
    ok: true,
    user: { id: row.id, email: row.email, name: row.name, role: row.role, partnerId: row.partnerId, sessionVersion: row.sessionVersion },
  };
}
