import { and, desc, eq, ilike, inArray, lt, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { brokerageCases, partners } from "@/db/schema";
import { AppError } from "@/server/errors";
import { getBrokerageCaseByIdOrThrow, nextBrokerageStates, progressUrl, type BrokerageStatus } from "./brokerage";

// The brokerage queue as staff work it: every partner's cases by stage, and one
// case with the moves its state allows. The moves are advanceBrokerageCase (the
// CLI's brokerage:advance) and addBrokerageNote.

const CASE_ID = /^bc_[0-9A-Za-z]{22}$/;

export async function listCasesForStaff(db: Db, input: { statuses?: BrokerageStatus[]; q?: string; cursor?: string | null; limit: number }) {
  if (input.cursor && !CASE_ID.test(input.cursor)) throw new AppError("validation_error", "cursor is not a case id of this listing");
  const filters: (SQL | undefined)[] = [
    input.statuses?.length ? inArray(brokerageCases.status, input.statuses) : undefined,
    input.q ? ilike(brokerageCases.domain, `%${input.q.replace(/[%_\\]/g, "\\$&")}%`) : undefined,
    input.cursor ? lt(brokerageCases.id, input.cursor) : undefined,
  ];
  const rows = await db
    .select({ row: brokerageCases, partnerName: partners.name })
    .from(brokerageCases)
    .innerJoin(partners, eq(partners.id, brokerageCases.partnerId))
    .where(and(...filters))
    .orderBy(desc(brokerageCases.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return {
    cases: page.map(({ row, partnerName }) => ({
      id: row.id,
      domain: row.domain,
      status: row.status,
      tier: row.tier,
      environment: row.environment,
      partnerId: row.partnerId,
      partnerName,
      budgetCents: row.budgetCents,
      currency: row.currency,
      createdAt: row.createdAt.toISOString(),
    })),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.row.id ?? null) : null,
  };
}

export async function getCaseForStaff(db: Db, caseId: string) {
  const { row, timeline } = await getBrokerageCaseByIdOrThrow(db, caseId);
  const [partner] = await db.select({ name: partners.name }).from(partners).where(eq(partners.id, row.partnerId));
  return {
    case: {
      id: row.id,
      domain: row.domain,
      status: row.status,
      tier: row.tier,
      environment: row.environment,
      partnerId: row.partnerId,
      partnerName: partner?.name ?? row.partnerId,
      buyerEmail: row.buyerEmail,
      budgetCents: row.budgetCents,
      finalPriceCents: row.finalPriceCents,
      currency: row.currency,
      progressUrl: progressUrl(row.id),
      createdAt: row.createdAt.toISOString(),
    },
    timeline: timeline.map((t) => ({ status: t.status, note: t.note, at: t.at.toISOString() })),
    next: [...nextBrokerageStates(row.status)],
  };
}
