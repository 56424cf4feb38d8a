import type { Db } from "@/db/client";
import { auditLog, type Environment } from "@/db/schema";
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
  await db.insert(auditLog).values({
    id: newId("audit", at?.getTime()),
    actorType: actor.type,
    actorId: actor.id,
    ...entry,
    ...(at ? { createdAt: at } : {}),
  });
}
