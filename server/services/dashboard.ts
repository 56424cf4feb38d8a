import { and, count, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { credentials, domains, partners } from "@/db/schema";
import { notFound } from "@/server/errors";

// Read models for the partner dashboard.

export interface PartnerOverview {
  partner: {
    id: string;
    name: string;
    paymentModel: "mor" | "non_mor";
    isAffiliate: boolean;
    /** Production access approved by an admin: live keys may be created. */
    liveApproved: boolean;
  };
  /** Active (not revoked) API credentials per environment. */
  credentials: { sandbox: number; live: number };
  /** Listed domains a sandbox key can buy; the partner's test catalogue. */
  sandboxInventoryCount: number;
}

export async function getPartnerOverviewOrThrow(db: Db, partnerId: string): Promise<PartnerOverview> {
  const [[partner], keyCounts, [inventory]] = await Promise.all([
    db
      .select({
        id: partners.id,
        name: partners.name,
        paymentModel: partners.paymentModel,
        isAffiliate: partners.isAffiliate,
        liveApprovedAt: partners.liveApprovedAt,
      })
      .from(partners)
      .where(eq(partners.id, partnerId)),
    db
      .select({ environment: credentials.environment, n: count() })
      .from(credentials)
      .where(and(eq(credentials.partnerId, partnerId), isNull(credentials.revokedAt)))
      .groupBy(credentials.environment),
    db
      .select({ n: count() })
      .from(domains)
      .where(and(eq(domains.environment, "sandbox"), eq(domains.status, "listed"))),
  ]);
  if (!partner) throw notFound("partner");
  const { liveApprovedAt, ...identity } = partner;
  const byEnvironment = new Map(keyCounts.map((row) => [row.environment, row.n]));
  return {
    partner: { ...identity, liveApproved: liveApprovedAt !== null },
    credentials: { sandbox: byEnvironment.get("sandbox") ?? 0, live: byEnvironment.get("live") ?? 0 },
    sandboxInventoryCount: inventory?.n ?? 0,
  };
}
