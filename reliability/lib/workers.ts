import { spawn, type ChildProcess } from "node:child_process";
import type { Database } from "@/db/client";
import { startWebhookWorker, type WebhookWorker, type WorkerOptions } from "@/server/webhooks/worker";
import { stopChildren } from "./processes";

// Webhook workers for benches and harnesses: in this process (each on the given
// pool) or as `scripts/worker.ts` processes (their own pools; they read
// WEBHOOK_RETRY_SCHEDULE and WEBHOOK_ALLOW_PRIVATE_TARGETS from `env`), serving
// only `partnerIds`, so work left by other runs on the database is not theirs.

export type WorkerMode = "in-process" | "processes";

export interface RunningWorkers {
  children: ChildProcess[];
  workers: WebhookWorker[];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startWorkers(input: {
  count: number;
  mode: WorkerMode;
  partnerIds: string[];
  /** In-process: one pool per worker, or this one for all. */
  db: () => Database;
  options?: WorkerOptions;
  env?: Record<string, string>;
}): Promise<RunningWorkers> {
  const { count, mode, partnerIds } = input;
  const workers: WebhookWorker[] = [];
  const children: ChildProcess[] = [];
  if (mode === "in-process") {
    for (let i = 0; i < count; i++) workers.push(await startWebhookWorker({ log: () => {}, ...input.options, db: input.db(), partnerIds }));
  } else {
    for (let i = 0; i < count; i++) {
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts", ...partnerIds.flatMap((id) => ["--partner", id])], {
        env: { ...process.env, ...input.env },
        stdio: ["ignore", "pipe", "inherit"],
      });
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("started") && resolve());
        child.once("exit", (code) => reject(new Error(`worker exited (${code})`)));
      });
      children.push(child);
    }
  }
  return {
    children,
    workers,
    stop: async (signal = "SIGTERM") => {
      await Promise.all(workers.map((w) => w.stop()));
      await stopChildren(children, signal);
    },
  };
}
