import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { hashPassword, verifyPassword } from "@/server/crypto";

// Email + password check behind every sign-in path (the sign-in page's server
// action and next-auth's credentials endpoint).

export const signInSchema = z.object({
  email: z.string().trim().toLowerCase().max(320).pipe(z.email()),
  password: z.string().min(1).max(1024),
});

export type SignInInput = z.infer<typeof signInSchema>;

export interface AuthenticatedUser {
  id: string;
  email: string;
  name: string | null;
  role: "partner" | "admin" | "customer";
  partnerId: string | null;
}

export type AuthenticateResult =
  | { ok: true; user: AuthenticatedUser }
  | { ok: false; reason: "invalid_credentials" | "disabled" };

// An unknown email still pays for one scrypt run, so response time does not
// reveal which emails have accounts.
let dummyHash: Promise<string> | undefined;

export async function authenticateUser(db: Db, input: SignInInput): Promise<AuthenticateResult> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      partnerId: users.partnerId,
      passwordHash: users.passwordHash,
      disabledAt: users.disabledAt,
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
  // Said only after the password matched, so it reveals nothing to a guesser.
  if (row.disabledAt) return { ok: false, reason: "disabled" };
  return {
    ok: true,
    user: { id: row.id, email: row.email, name: row.name, role: row.role, partnerId: row.partnerId },
  };
}
