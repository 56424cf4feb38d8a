import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { choreRuns } from "@/db/schema";
import { clock } from "@/server/clock";

// Once across all workers: each run of a scheduled chore belongs to a slot (the
// month of a settlement, the hour of a pruning pass), and the first worker to
// insert the (chore, slot) row runs it; the others see the row and skip. A runner
// that dies mid-run leaves its lease to expire, and the next worker to look takes
// the slot over; a run that fails gives its lease back so the next tick retries.
// Why rows and not a job library (pg-boss, graphile-worker): README "Operate it".

export interface ChoreSlot {
  chore: string;
  slot: string;
  /** How long the runner may take before another worker may take the slot over. */
  leaseMs: number;
  /** Who runs it (host and pid), kept in the row for the operator. */
  holder: string;
}

export type ChoreOutcome<T> = { ran: true; result: T } | { ran: false };

/** Claims the slot if nobody has (or its runner's lease ran out unfinished); true when this caller got it. */
export async function claimChoreSlot(db: Db, slot: ChoreSlot): Promise<boolean> {
  const now = clock.now();
  const claimed = await db
    .insert(choreRuns)
    .values({ chore: slot.chore, slot: slot.slot, holder: slot.holder, startedAt: now, leaseUntil: new Date(now.getTime() + slot.leaseMs) })
    .onConflictDoUpdate({
      target: [choreRuns.chore, choreRuns.slot],
      set: { holder: slot.holder, startedAt: now, leaseUntil: new Date(now.getTime() + slot.leaseMs), outcome: null },
      setWhere: sql`${choreRuns.finishedAt} is null and ${choreRuns.leaseUntil} <= ${now.toISOString()}::timestamptz`,
    })
    .returning({ holder: choreRuns.holder });
  return claimed.length === 1;
}

/**
 * Runs `fn` if this caller claims the slot, and records how it ended. A failure
 * is recorded and rethrown, and frees the slot for the next attempt.
 */
export async function runChoreOnce<T>(db: Db, slot: ChoreSlot, fn: () => Promise<T>, describe: (result: T) => string = String): Promise<ChoreOutcome<T>> {
  if (!(await claimChoreSlot(db, slot))) return { ran: false };
  const mine = and(eq(choreRuns.chore, slot.chore), eq(choreRuns.slot, slot.slot), eq(choreRuns.holder, slot.holder));
  try {
    const result = await fn();
    await db.update(choreRuns).set({ finishedAt: clock.now(), outcome: describe(result).slice(0, 1000) }).where(mine);
    return { ran: true, result };
  } catch (error) {
    await db.update(choreRuns).set({ leaseUntil: clock.now(), outcome: `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 1000) }).where(mine);
    throw error;
  }
}
