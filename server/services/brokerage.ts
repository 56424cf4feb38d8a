import { advisoryLocks } from "@/db/locks";
import { createHmac } from "node:crypto";
import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog, brokerageCases, brokerageTimeline, domains, partners, payouts, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import {
  BROKERAGE_FEE_BPS,
  openBrokerageStatuses,
  type brokerageStatuses,
  type brokerageTiers,
  type eligibilityReasonCodes,
} from "@/server/contracts/brokerage";
import { deriveKey, sha256Hex } from "@/server/crypto";
import { getEnv } from "@/server/env";
import { AppError } from "@/server/errors";
import { newId } from "@/server/ids";
import { recordEvent } from "./events";
import { pageOf } from "./pages";
import { commissionCents } from "./orders";
import type { Actor } from "./partners";
import { checkActiveSite, type SiteProbe } from "./site-probe";
import { recordAudit } from "./audit";
import { newPayoutState } from "./payouts";

// Brokerage cases (DECISIONS "Brokerage case"): eligibility, opening a case,
// the staff-driven state machine, reads, and the brokerage payout step of a
// settlement run.
//
// Invariants:
// - At most one open case (OPEN, RESEARCHING, NEGOTIATING) per environment and
//   domain: creation re-checks under a per-domain advisory lock.
// - The progress token is HMAC-SHA256(deriveKey("brokerage-progress"), case_id),
//   base64url: unguessable without the server key, re-derivable so every read
//   returns the same URL; only its SHA-256 is stored (the public page looks it up).
// - COMPLETED fixes final price, service fee and partner share, and writes the
//   brokerage.case_completed event and the audit row in the same transaction.
// - A completed case's share is paid once: the payout and a `brokerage.share_paid`
//   audit row naming the case are written together under an advisory lock, and the
//   step only picks cases without that row.

export type BrokerageCaseRow = typeof brokerageCases.$inferSelect;
export type BrokerageTimelineRow = typeof brokerageTimeline.$inferSelect;
export type BrokerageStatus = (typeof brokerageStatuses)[number];
export type BrokerageTier = (typeof brokerageTiers)[number];

export interface BrokerageCaseWithTimeline {
  row: BrokerageCaseRow;
  timeline: BrokerageTimelineRow[];
}

interface Owner {
  partnerId: string;
  environment: Environment;
}

const CREATE_LOCK = advisoryLocks.brokerageCreate;
const PAYOUT_LOCK = advisoryLocks.brokeragePayout;

// --- the progress token ------------------------------------------------------------------

export function progressToken(caseId: string): string {
  return createHmac("sha256", deriveKey("brokerage-progress")).update(caseId).digest("base64url");
}

export function progressUrl(caseId: string): string {
  return `${getEnv().APP_URL.replace(/\/$/, "")}/brokerage/${progressToken(caseId)}`;
}

const PROGRESS_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Whether a progress token has the shape ours have (else the page answers 400, not 404). */
export function isWellFormedProgressToken(token: string): boolean {
  return PROGRESS_TOKEN.test(token);
}

/** The case behind a public progress token, or null (unknown or malformed token). */
export async function getCaseByProgressToken(db: Db, token: string): Promise<BrokerageCaseWithTimeline | null> {
  if (!PROGRESS_TOKEN.test(token)) return null;
  const [row] = await db.select().from(brokerageCases).where(eq(brokerageCases.progressTokenHash, sha256Hex(token)));
  return row ? { row, timeline: await timelineOf(db, row.id) } : null;
}

// --- eligibility ---------------------------------------------------------------------------

export interface EligibilityReason {
  code: (typeof eligibilityReasonCodes)[number];
  message: string;
}

export interface Eligibility {
  domain: string;
  eligible: boolean;
  reasons: EligibilityReason[];
}

/**
 * Inventory first (a listed domain is bought, not brokered, so the site probe is
 * skipped), then open cases of any partner in the environment, then the site.
 */
export async function checkEligibility(
  db: Db,
  input: { environment: Environment; domain: string; probe?: SiteProbe },
): Promise<Eligibility> {
  const reasons: EligibilityReason[] = [];
  const [listing] = await db
    .select({ status: domains.status })
    .from(domains)
    .where(and(eq(domains.environment, input.environment), eq(domains.name, input.domain), inArray(domains.status, ["listed", "reserved"])));
  if (listing) {
    reasons.push({
      code: "listed",
      message:
        listing.status === "listed"
          ? `${input.domain} is listed in the inventory: buy it with POST /quotes and POST /orders`
          : `${input.domain} is in the inventory and currently reserved by an order or quote`,
    });
  }
  if (await findOpenCase(db, input.environment, input.domain)) {
    reasons.push({ code: "open_case", message: `${input.domain} is already in an open brokerage case` });
  }
  if (!listing) {
    const site = await checkActiveSite(db, input.domain, input.probe);
    if (site.active) reasons.push({ code: "active_site", message: `${input.domain} runs an active website` });
  }
  return { domain: input.domain, eligible: reasons.length === 0, reasons };
}

async function findOpenCase(db: Db, environment: Environment, domain: string) {
  const [row] = await db
    .select({ id: brokerageCases.id })
    .from(brokerageCases)
    .where(
      and(
        eq(brokerageCases.environment, environment),
        eq(brokerageCases.domain, domain),
        inArray(brokerageCases.status, [...openBrokerageStatuses]),
      ),
    )
    .limit(1);
  return row;
}

// --- creating a case ----------------------------------------------------------------------

export interface CreateBrokerageCaseInput extends Owner {
  domain: string;
  tier: BrokerageTier;
  buyerEmail: string;
  budgetCents: number;
  currency: string;
  actor: Actor;
  probe?: SiteProbe;
}

export async function createBrokerageCase(db: Db, input: CreateBrokerageCaseInput): Promise<BrokerageCaseWithTimeline> {
  const owner = { partnerId: input.partnerId, environment: input.environment };
  // The probe may take seconds: it runs before the transaction, never inside it.
  const eligibility = await checkEligibility(db, { environment: input.environment, domain: input.domain, probe: input.probe });
  if (!eligibility.eligible) throw ineligible(eligibility.reasons);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CREATE_LOCK}, hashtext(${`${input.environment}:${input.domain}`}))`);
    if (await findOpenCase(tx, input.environment, input.domain)) {
      throw ineligible([{ code: "open_case", message: `${input.domain} is already in an open brokerage case` }]);
    }
    const now = clock.now();
    const id = newId("brokerageCase", now.getTime());
    const [row] = await tx
      .insert(brokerageCases)
      .values({
        id,
        ...owner,
        domain: input.domain,
        tier: input.tier,
        buyerEmail: input.buyerEmail,
        budgetCents: input.budgetCents,
        currency: input.currency,
        status: "OPEN",
        progressTokenHash: sha256Hex(progressToken(id)),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const [entry] = await tx
      .insert(brokerageTimeline)
      .values({ caseId: id, status: "OPEN", note: "Case opened: we will research the current owner.", at: now })
      .returning();
    if (!row || !entry) throw new Error("brokerage case insert returned no row");
    await audit(tx, input.actor, row, "brokerage.case_opened", { tier: input.tier, budget: input.budgetCents, currency: input.currency });
    return { row, timeline: [entry] };
  });
}

function ineligible(reasons: EligibilityReason[]): AppError {
  return new AppError("conflict", `domain is not eligible for brokerage: ${reasons.map((r) => r.message).join("; ")}`);
}

// --- the state machine --------------------------------------------------------------------

/** Where a case may go next (staff console buttons). */
export function nextBrokerageStates(status: BrokerageStatus): readonly BrokerageStatus[] {
  return nextStates[status];
}

const nextStates: Record<BrokerageStatus, readonly BrokerageStatus[]> = {
  OPEN: ["RESEARCHING", "CLOSED_NO_DEAL"],
  RESEARCHING: ["NEGOTIATING", "CLOSED_NO_DEAL"],
  NEGOTIATING: ["COMPLETED", "CLOSED_NO_DEAL"],
  COMPLETED: [],
  CLOSED_NO_DEAL: [],
};

const defaultNotes: Record<BrokerageStatus, string> = {
  OPEN: "Case opened.",
  RESEARCHING: "Research started: identifying and contacting the current owner.",
  NEGOTIATING: "The owner responded; negotiating terms.",
  COMPLETED: "Deal closed.",
  CLOSED_NO_DEAL: "Closed without a deal.",
};

export interface AdvanceBrokerageCaseInput {
  caseId: string;
  to: BrokerageStatus;
  finalPriceCents?: number;
  note?: string;
  actor: Actor;
}

/** Staff move (CLI, admin console). Illegal moves are 409 conflict; COMPLETED needs a final price. */
export async function advanceBrokerageCase(db: Db, input: AdvanceBrokerageCaseInput): Promise<BrokerageCaseWithTimeline> {
  if (input.to === "COMPLETED" && input.finalPriceCents === undefined) {
    throw new AppError("validation_error", "COMPLETED needs the final price", [{ path: "final_price", message: "is required for COMPLETED" }]);
  }
  if (input.to !== "COMPLETED" && input.finalPriceCents !== undefined) {
    throw new AppError("validation_error", "a final price is only given with COMPLETED", [{ path: "final_price", message: "only with COMPLETED" }]);
  }
  if (input.finalPriceCents !== undefined && !(Number.isSafeInteger(input.finalPriceCents) && input.finalPriceCents > 0)) {
    throw new AppError("validation_error", "final price must be a positive integer of minor units", [{ path: "final_price", message: "must be > 0" }]);
  }
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(brokerageCases).where(eq(brokerageCases.id, input.caseId)).for("update");
    if (!current) throw new AppError("not_found", `brokerage case ${input.caseId} not found`);
    if (!nextStates[current.status].includes(input.to)) {
      const allowed = nextStates[current.status];
      throw new AppError(
        "conflict",
        `case ${current.id} is ${current.status}; it can move to ${allowed.length ? allowed.join(" or ") : "nothing (closed)"}, not ${input.to}`,
      );
    }
    const now = clock.now();
    const closing = input.to === "COMPLETED" || input.to === "CLOSED_NO_DEAL";
    let outcome: Partial<BrokerageCaseRow> = {};
    if (input.to === "COMPLETED") {
      const [partner] = await tx.select({ bps: partners.brokerageShareBps }).from(partners).where(eq(partners.id, current.partnerId));
      if (!partner) throw new Error(`partner ${current.partnerId} not found`);
      const finalPrice = input.finalPriceCents!;
      const fee = commissionCents(finalPrice, BROKERAGE_FEE_BPS[current.tier as BrokerageTier] ?? BROKERAGE_FEE_BPS.managed);
      outcome = { finalPriceCents: finalPrice, serviceFeeCents: fee, partnerShareCents: commissionCents(fee, partner.bps) };
    }
    const [row] = await tx
      .update(brokerageCases)
      .set({ status: input.to, ...outcome, closedAt: closing ? now : null, updatedAt: now })
      .where(eq(brokerageCases.id, current.id))
      .returning();
    if (!row) throw new Error("brokerage case update returned no row");
    await tx.insert(brokerageTimeline).values({ caseId: row.id, status: input.to, note: input.note ?? defaultNotes[input.to], at: now });
    if (input.to === "COMPLETED") {
      await recordEvent(tx, {
        partnerId: row.partnerId,
        environment: row.environment,
        type: "brokerage.case_completed",
        data: { case: completedCasePayload(row) },
      });
    }
    await audit(tx, input.actor, row, "brokerage.case_advanced", {
      from: current.status,
      to: input.to,
      final_price_cents: row.finalPriceCents,
      service_fee_cents: row.serviceFeeCents,
      partner_share_cents: row.partnerShareCents,
    });
    return { row, timeline: await timelineOf(tx, row.id) };
  });
}

/** `data.case` of brokerage.case_completed (DECISIONS "Webhooks"). */
export function completedCasePayload(row: BrokerageCaseRow) {
  return {
    case_id: row.id,
    domain: row.domain,
    status: row.status,
    final_price_cents: row.finalPriceCents,
    currency: row.currency,
    partner_share_cents: row.partnerShareCents,
  };
}

async function audit(db: Db, actor: Actor, row: BrokerageCaseRow, action: string, data: Record<string, unknown>) {
  await recordAudit(db, actor, {
    action,
    targetType: "brokerage_case",
    targetId: row.id,
    partnerId: row.partnerId,
    environment: row.environment,
    data,
  }, clock.now());
}

/**
 * A note for the buyer on the case's progress page (staff: "the owner replied,
 * we expect an answer Friday"): a timeline entry at the case's current status.
 */
export async function addBrokerageNote(db: Db, input: { caseId: string; note: string; actor: Actor }): Promise<BrokerageCaseWithTimeline> {
  const note = input.note.trim();
  if (note.length < 3 || note.length > 1000) {
    throw new AppError("validation_error", "a note is 3 to 1000 characters", [{ path: "note", message: "3 to 1000 characters" }]);
  }
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(brokerageCases).where(eq(brokerageCases.id, input.caseId)).for("update");
    if (!row) throw new AppError("not_found", `brokerage case ${input.caseId} not found`);
    await tx.insert(brokerageTimeline).values({ caseId: row.id, status: row.status, note, at: clock.now() });
    await audit(tx, input.actor, row, "brokerage.note_added", { status: row.status, note });
    return { row, timeline: await timelineOf(tx, row.id) };
  });
}

// --- reads ------------------------------------------------------------------------------------

export async function timelineOf(db: Db, caseId: string): Promise<BrokerageTimelineRow[]> {
  return db.select().from(brokerageTimeline).where(eq(brokerageTimeline.caseId, caseId)).orderBy(asc(brokerageTimeline.id));
}

const ownedBy = (owner: Owner) => and(eq(brokerageCases.partnerId, owner.partnerId), eq(brokerageCases.environment, owner.environment));

/** Another partner's or environment's case is not_found, like a missing one. */
export async function getBrokerageCaseOrThrow(db: Db, input: Owner & { caseId: string }): Promise<BrokerageCaseWithTimeline> {
  const [row] = await db
    .select()
    .from(brokerageCases)
    .where(and(eq(brokerageCases.id, input.caseId), ownedBy(input)));
  if (!row) throw new AppError("not_found", `brokerage case ${input.caseId} not found`);
  return { row, timeline: await timelineOf(db, row.id) };
}

/** Staff lookup (CLI): any partner, any environment. */
export async function getBrokerageCaseByIdOrThrow(db: Db, caseId: string): Promise<BrokerageCaseWithTimeline> {
  const [row] = await db.select().from(brokerageCases).where(eq(brokerageCases.id, caseId));
  if (!row) throw new AppError("not_found", `brokerage case ${caseId} not found`);
  return { row, timeline: await timelineOf(db, row.id) };
}

export interface ListBrokerageCasesInput extends Owner {
  limit: number;
  cursor?: string;
  statuses?: BrokerageStatus[];
  from?: Date;
  to?: Date;
}

const CASE_ID = /^bc_[0-9A-Za-z]{22}$/;

/** Newest first by id (ids sort by creation time); the cursor is the last id returned. */
export async function listBrokerageCases(db: Db, input: ListBrokerageCasesInput) {
  if (input.from && input.to && input.to <= input.from) {
    throw new AppError("validation_error", "to must be after from", [{ path: "to", message: "must be after from" }]);
  }
  let afterId: string | undefined;
  if (input.cursor) {
    afterId = Buffer.from(input.cursor, "base64url").toString("utf8");
    if (!CASE_ID.test(afterId)) {
      throw new AppError("validation_error", "cursor is not a next_cursor of this listing", [{ path: "cursor", message: "invalid cursor" }]);
    }
  }
  const filters: (SQL | undefined)[] = [
    ownedBy(input),
    input.statuses?.length ? inArray(brokerageCases.status, input.statuses) : undefined,
    input.from ? gte(brokerageCases.createdAt, input.from) : undefined,
    input.to ? lt(brokerageCases.createdAt, input.to) : undefined,
    afterId ? lt(brokerageCases.id, afterId) : undefined,
  ];
  const rows = await db
    .select()
    .from(brokerageCases)
    .where(and(...filters))
    .orderBy(desc(brokerageCases.id))
    .limit(input.limit + 1);
  const { page, nextCursor } = pageOf(rows, input.limit, (last) => Buffer.from(last.id).toString("base64url"));
  return { rows: page, nextCursor };
}

// --- settlement step ------------------------------------------------------------------------

export interface BrokeragePayout {
  caseId: string;
  payoutId: string;
  partnerId: string;
  environment: Environment;
  amountCents: number;
  currency: string;
}

const monthOf = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
const ymd = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The brokerage step of a settlement run: every COMPLETED case whose month of
 * completion (UTC) ended at `asOf` and that was not paid yet gets one payout of
 * kind `brokerage` for its partner share (none for a zero share). Idempotent.
 */
export async function settleBrokerageShares(
  db: Db,
  input: { asOf: Date; actor?: Actor; only?: { partnerId: string; environment: Environment } },
): Promise<BrokeragePayout[]> {
  const cutoff = monthOf(input.asOf);
  const actor = input.actor ?? { type: "system" };
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PAYOUT_LOCK})`);
    const due = await tx
      .select()
      .from(brokerageCases)
      .where(
        and(
          eq(brokerageCases.status, "COMPLETED"),
          lt(brokerageCases.closedAt, cutoff),
          input.only ? and(eq(brokerageCases.partnerId, input.only.partnerId), eq(brokerageCases.environment, input.only.environment)) : undefined,
          sql`${brokerageCases.partnerShareCents} > 0`,
          sql`not exists (select 1 from ${auditLog} a where a.target_type = 'brokerage_case'
                and a.target_id = ${brokerageCases.id} and a.action = 'brokerage.share_paid')`,
        ),
      )
      .orderBy(asc(brokerageCases.id))
      .for("update");
    const paid: BrokeragePayout[] = [];
    for (const row of due) {
      const now = clock.now();
      const payoutId = newId("payout", now.getTime());
      const period = monthOf(row.closedAt!);
      const periodEnd = new Date(Date.UTC(period.getUTCFullYear(), period.getUTCMonth() + 1, 1));
      await tx.insert(payouts).values({
        id: payoutId,
        partnerId: row.partnerId,
        environment: row.environment,
        kind: "brokerage",
        amountCents: row.partnerShareCents!,
        currency: row.currency,
        settlementId: null,
        periodStart: ymd(period),
        periodEnd: ymd(periodEnd),
        ...newPayoutState(row.environment, now),
        createdAt: now,
      });
      await audit(tx, actor, row, "brokerage.share_paid", { payout_id: payoutId, amount_cents: row.partnerShareCents });
      paid.push({
        caseId: row.id,
        payoutId,
        partnerId: row.partnerId,
        environment: row.environment,
        amountCents: row.partnerShareCents!,
        currency: row.currency,
      });
    }
    return paid;
  });
}

// --- serialization ------------------------------------------------------------------------

export function serializeBrokerageCaseSummary(row: BrokerageCaseRow) {
  return {
    case_id: row.id,
    domain: row.domain,
    tier: row.tier as BrokerageTier,
    status: row.status,
    buyer_email: row.buyerEmail,
    budget: row.budgetCents,
    currency: row.currency,
    final_price_cents: row.finalPriceCents,
    service_fee_cents: row.serviceFeeCents,
    partner_share_cents: row.partnerShareCents,
    progress_url: progressUrl(row.id),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    closed_at: row.closedAt?.toISOString() ?? null,
  };
}

export function serializeBrokerageCase({ row, timeline }: BrokerageCaseWithTimeline) {
  return {
    ...serializeBrokerageCaseSummary(row),
    timeline: timeline.map((entry) => ({ status: entry.status, at: entry.at.toISOString(), note: entry.note })),
  };
}
