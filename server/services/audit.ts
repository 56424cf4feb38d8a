import { and, desc, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog, users, type Environment } from "@/db/schema";
import { AppError } from "@/server/errors";
import { newId } from "@/server/ids";
import type { Actor } from "./partners";

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string;
  partnerId?: string | null;
  environment?: Environment | null;
  data?: Record<string, unknown>;
}

/**
 * One audit row: who did what to which target, in the caller's transaction.
 * `at` stamps the id and the time with the service's clock; without it the
 * database's time is kept.
 */
export async function recordAudit(db: Db, actor: Actor, entry: AuditEntry, at?: Date): Promise<void> {
  await db.insert(auditLog).values(auditValues(actor, entry, at));
}

/** The audit row recordAudit inserts: a caller may insert it inside a larger statement (createOrder's). */
export function auditValues(actor: Actor, entry: AuditEntry, at?: Date) {
  return {
    id: newId("audit", at?.getTime()),
    actorType: actor.type,
    actorId: actor.id,
    ...entry,
    ...(at ? { createdAt: at } : {}),
  };
}

export interface AuditFilters {
  partnerId?: string;
  /** An action, or a family: "order" matches order.*. */
  action?: string;
  actorType?: string;
  actorId?: string;
  targetType?: string;
  targetId?: string;
  from?: Date;
  to?: Date;
  cursor?: string | null;
  limit?: number;
  /** Staff see staff and CLI actors by id; a partner's own log names them generically. */
  namesStaff?: boolean;
}

const genericActors: Record<string, string> = { admin: "Marketplace staff", cli: "Marketplace operations", system: "System" };
const AUDIT_ID = /^aud_[0-9A-Za-z]{22}$/;

/**
 * The audit log newest first, filtered; ids sort by time, so the cursor is the
 * last id seen. The team page (one partner) and the staff audit viewer read it.
 */
export async function listAudit(db: Db, input: AuditFilters) {
  if (input.cursor && !AUDIT_ID.test(input.cursor)) throw new AppError("validation_error", "cursor is not an audit id of this listing");
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 200);
  const family = input.action ? `${input.action.replace(/[%_\\]/g, "\\$&")}.%` : "";
  const filters: (SQL | undefined)[] = [
    input.partnerId ? eq(auditLog.partnerId, input.partnerId) : undefined,
    input.action ? or(eq(auditLog.action, input.action), sql`${auditLog.action} like ${family}`) : undefined,
    input.actorType ? eq(auditLog.actorType, input.actorType) : undefined,
    input.actorId ? eq(auditLog.actorId, input.actorId) : undefined,
    input.targetType ? eq(auditLog.targetType, input.targetType) : undefined,
    input.targetId ? eq(auditLog.targetId, input.targetId) : undefined,
    input.from ? gte(auditLog.createdAt, input.from) : undefined,
    input.to ? lt(auditLog.createdAt, input.to) : undefined,
    input.cursor ? lt(auditLog.id, input.cursor) : undefined,
  ];
  const rows = await db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      actorType: auditLog.actorType,
      actorId: auditLog.actorId,
      actorEmail: users.email,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      partnerId: auditLog.partnerId,
      environment: auditLog.environment,
      data: auditLog.data,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(and(...filters))
    .orderBy(desc(auditLog.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    entries: page.map((row) => ({
      ...row,
      actor:
        row.actorType === "partner" || (input.namesStaff && row.actorEmail)
          ? (row.actorEmail ?? row.actorId ?? "Sign-up")
          : input.namesStaff
            ? `${genericActors[row.actorType] ?? row.actorType}${row.actorId ? ` (${row.actorId})` : ""}`
            : (genericActors[row.actorType] ?? row.actorType),
      createdAt: row.createdAt.toISOString(),
    })),
    nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}
