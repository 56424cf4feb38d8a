import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { partners, productionAccessRequests } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError, isUniqueViolation, notFound } from "@/server/errors";
import { newId } from "@/server/ids";
import { recordAudit } from "./audit";
import { approveLive, createPartner, type Actor } from "./partners";

// A partner's organisation as its own staff see it: self-service sign-up, the
// onboarding checklist, and the request for production access staff decide.

export interface PartnerSignUpInput {
  company: string;
  name?: string;
  email: string;
  password: string;
  paymentModel: "mor" | "non_mor";
}

/** A new partner organisation with sandbox access and its first (owner) login. */
export async function signUpPartner(db: Db, input: PartnerSignUpInput) {
  const created = await createPartner(db, { name: input.company, email: input.email, password: input.password, paymentModel: input.paymentModel }, { type: "partner" });
  return created;
}

export interface OnboardingStep {
  id: "key_created" | "signed_call" | "webhook_set" | "event_delivered" | "sandbox_order";
  done: boolean;
}

/** The overview's checklist, each step ticked from the data it names (sandbox). */
export async function getOnboarding(db: Db, partnerId: string): Promise<OnboardingStep[]> {
  const rows = await db.execute<Record<OnboardingStep["id"], boolean>>(sql`
    select
      exists (select 1 from credentials where partner_id = ${partnerId} and environment = 'sandbox') as key_created,
      exists (select 1 from request_log where partner_id = ${partnerId} and environment = 'sandbox' and status < 400) as signed_call,
      exists (select 1 from webhook_endpoints where partner_id = ${partnerId} and environment = 'sandbox') as webhook_set,
      exists (select 1 from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
              where w.partner_id = ${partnerId} and w.environment = 'sandbox' and d.status = 'succeeded') as event_delivered,
      exists (select 1 from orders where partner_id = ${partnerId} and environment = 'sandbox') as sandbox_order`);
  const row = rows[0];
  const ids: OnboardingStep["id"][] = ["key_created", "signed_call", "webhook_set", "event_delivered", "sandbox_order"];
  return ids.map((id) => ({ id, done: Boolean(row?.[id]) }));
}

export async function getOrganisationOrThrow(db: Db, partnerId: string) {
  const [[partner], requests] = await Promise.all([
    db.select().from(partners).where(eq(partners.id, partnerId)),
    db.select().from(productionAccessRequests).where(eq(productionAccessRequests.partnerId, partnerId)).orderBy(desc(productionAccessRequests.createdAt)).limit(1),
  ]);
  if (!partner) throw notFound("partner");
  const latest = requests[0];
  return {
    id: partner.id,
    name: partner.name,
    email: partner.email,
    paymentModel: partner.paymentModel,
    isAffiliate: partner.isAffiliate,
    rates: {
      saleCommissionBps: partner.saleCommissionBps,
      referralCommissionBps: partner.referralCommissionBps,
      brokerageShareBps: partner.brokerageShareBps,
    },
    liveApprovedAt: partner.liveApprovedAt?.toISOString() ?? null,
    suspendedAt: partner.suspendedAt?.toISOString() ?? null,
    suspendedReason: partner.suspendedReason,
    accessRequest: latest ? serializeAccessRequest(latest) : null,
    createdAt: partner.createdAt.toISOString(),
  };
}

export interface AccessRequestInput {
  partnerId: string;
  requestedBy: string;
  website: string;
  useCase: string;
  expectedMonthlyOrders: number;
}

export async function requestProductionAccess(db: Db, input: AccessRequestInput, actor: Actor) {
  const [partner] = await db.select({ liveApprovedAt: partners.liveApprovedAt }).from(partners).where(eq(partners.id, input.partnerId));
  if (!partner) throw notFound("partner");
  if (partner.liveApprovedAt) throw new AppError("conflict", "production access is already approved");
  const pending = () => new AppError("conflict", "a request is already waiting for a decision");
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(productionAccessRequests)
        .values({ id: newId("accessRequest"), ...input, status: "pending" })
        .returning();
      await recordAudit(tx, actor, { action: "partner.production_access_requested", targetType: "partner", targetId: input.partnerId, partnerId: input.partnerId, data: { request_id: row!.id } });
      return serializeAccessRequest(row!);
    });
  } catch (error) {
    throw isUniqueViolation(error) ? pending() : error;
  }
}

/** Staff approve (which grants live access) or decline a pending request. */
export async function decideProductionAccess(
  db: Db,
  input: { requestId: string; decision: "approved" | "declined"; note?: string },
  actor: Actor,
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(productionAccessRequests)
      .set({ status: input.decision, decidedBy: actor.id ?? actor.type, decisionNote: input.note ?? null, decidedAt: clock.now() })
      .where(and(eq(productionAccessRequests.id, input.requestId), eq(productionAccessRequests.status, "pending")))
      .returning();
    if (!row) throw new AppError("not_found", `pending production access request ${input.requestId} not found`);
    if (input.decision === "approved") await approveLive(tx, { partnerId: row.partnerId }, actor);
    await recordAudit(tx, actor, {
      action: `partner.production_access_${input.decision}`,
      targetType: "partner",
      targetId: row.partnerId,
      partnerId: row.partnerId,
      data: { request_id: row.id, before: "pending", after: input.decision, reason: input.note ?? null },
    });
    return serializeAccessRequest(row);
  });
}

export async function listAccessRequests(db: Db, input: { status?: "pending" | "approved" | "declined"; before?: string; limit: number }) {
  const rows = await db
    .select({ request: productionAccessRequests, partnerName: partners.name })
    .from(productionAccessRequests)
    .innerJoin(partners, eq(partners.id, productionAccessRequests.partnerId))
    .where(and(input.status ? eq(productionAccessRequests.status, input.status) : undefined, input.before ? lt(productionAccessRequests.id, input.before) : undefined))
    .orderBy(desc(productionAccessRequests.id))
    .limit(input.limit);
  return rows.map((r) => ({ ...serializeAccessRequest(r.request), partnerName: r.partnerName }));
}

function serializeAccessRequest(row: typeof productionAccessRequests.$inferSelect) {
  return {
    id: row.id,
    partnerId: row.partnerId,
    status: row.status,
    website: row.website,
    useCase: row.useCase,
    expectedMonthlyOrders: row.expectedMonthlyOrders,
    decisionNote: row.decisionNote,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
