import type { ChildProcess } from "node:child_process";
import { stopChildren } from "./processes";

// Process slots for the crash harness, as a process supervisor keeps them: each
// slot holds one started thing (gate server, worker process); the killer
// SIGKILLs a slot's process and its replacement starts in the background; a
// process that exits unasked (a crash) is replaced too, and counted. A start
// that fails (a worker migrates first, which fails while PostgreSQL is down) is
// retried until it succeeds.

export interface Started {
  children: ChildProcess[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function superviseSlots<T extends Started>(starters: (() => Promise<T>)[]) {
  const current: T[] = [];
  const refilling: Promise<void>[] = [];
  const killed = new WeakSet<ChildProcess>();
  let stopping = false;
  let selfExits = 0;

  async function fill(slot: number): Promise<void> {
    for (;;) {
      try {
        const started = await starters[slot]!();
        current[slot] = started;
        for (const child of started.children) {
          child.once("exit", () => {
            if (killed.has(child) || stopping) return;
            selfExits++;
            refilling[slot] = fill(slot);
          });
        }
        return;
      } catch {
        if (stopping) return;
        await sleep(300);
      }
    }
  }

  for (let slot = 0; slot < starters.length; slot++) refilling[slot] = fill(slot);

  return {
    ready: () => Promise.all(refilling),
    /** The slot's process, or its dead predecessor while the replacement starts. */
    current: (slot: number) => current[slot]!,
    /** SIGKILLs the slot's process (once its previous replacement is up) and starts the next one without waiting for it. */
    async kill(slot: number): Promise<void> {
      await refilling[slot];
      const dying = current[slot]!;
      for (const child of dying.children) killed.add(child);
      await stopChildren(dying.children, "SIGKILL");
      refilling[slot] = fill(slot);
    },
    selfExits: () => selfExits,
    async stopAll(): Promise<void> {
      // A crash while waiting starts another replacement: wait until none is pending.
      for (let pending: Promise<void>[] = []; pending.length !== refilling.length || pending.some((p, i) => p !== refilling[i]); ) {
        pending = [...refilling];
        await Promise.all(pending);
      }
      stopping = true;
      await Promise.all(current.map((started) => stopChildren(started.children, "SIGKILL")));
    },
  };
}
