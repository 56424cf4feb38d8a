import { randomBase62 } from "@/server/ids";
import { getDb } from "@/db/client";
import type { Scope } from "@/server/http/contract";
import { createCredential, createPartner } from "@/server/services/partners";
import type { PartnerCredentials } from "@/server/signing/client";
import { listBenchDomains } from "@/bench/setup";

// Harness data in the database the servers use: a merchant-of-record partner
// with a pool of credentials, and listings of its own.

export const newSuffix = () => randomBase62(8).toLowerCase();

export async function harnessPartner(input: { credentials: number; scopes: Scope[]; isAffiliate?: boolean }) {
  const db = getDb();
  const suffix = newSuffix();
  const partner = await createPartner(db, {
    name: `Reliability ${suffix}`,
    email: `reliability-${suffix}@reliability.example`,
    paymentModel: "mor",
    isAffiliate: input.isAffiliate ?? false,
    liveApproved: true,
  });
  const pool: PartnerCredentials[] = [];
  for (let i = 0; i < input.credentials; i++) {
    const created = await createCredential(db, { partnerId: partner.partnerId, environment: "sandbox", scopes: input.scopes });
    pool.push({ keyId: created.keyId, secret: created.secret });
  }
  return { partnerId: partner.partnerId, suffix, pool };
}

export function listDomains(prefix: string, count: number, priceCents: number): Promise<string[]> {
  return listBenchDomains(getDb(), { prefix, count, priceCents });
}
