import type { ChildProcess } from "node:child_process";

/** Sends `signal` to each child still running and waits until every one has exited. */
export function stopChildren(children: readonly ChildProcess[], signal: NodeJS.Signals): Promise<void[]> {
  return Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill(signal);
        }),
    ),
  );
}
