/**
 * Statements of one transaction sent together: issued in one tick, postgres.js writes
 * them in one packet and the server runs them in order, so they cost one round trip
 * instead of one each. Only for statements whose values do not depend on each other's
 * results; a later statement still sees what an earlier one did (a lock taken, a row
 * written) and takes its own snapshot after it. Waits for all of them and rejects with
 * the first failure in sending order: the ones after it then failed only because the
 * transaction was aborted, and none is left unhandled.
 */
export async function together<T extends readonly unknown[]>(...statements: { [K in keyof T]: PromiseLike<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(statements);
  const failed = settled.find((outcome) => outcome.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
