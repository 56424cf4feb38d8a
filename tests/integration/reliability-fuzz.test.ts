import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { closeDb } from "@/db/client";
import { flushRequestLog } from "@/server/services/request-log";
import { checkoutBuyerSchema } from "@/app/checkout/buyer";
import { signUpSchema } from "@/server/auth/credentials";
import { runFuzz } from "@/reliability/fuzz";
import { runFormFuzz } from "@/reliability/fuzz-forms";
import { formatReport, missed } from "@/reliability/lib/figures";
import { inProcess } from "@/reliability/lib/transport";

// The reduced form of `npm run reliability:fuzz` (reliability/README.md): a
// fixed seed, so a failure here reproduces with REL_SEED and REL_FUZZ_RUNS.

// The request log is written by a timer: flush it before the pool closes, or the timer reopens one.
after(async () => {
  await flushRequestLog();
  await closeDb();
});

describe("reliability: fuzzing every partner, public, OAuth and MCP endpoint", () => {
  it("2,000 generated requests: no 5xx, every error in the envelope, nothing changed by a refused request", async () => {
    const report = await runFuzz({ target: inProcess, runs: 2_000, seed: 17, batch: 100, advanceClock: true });
    assert.deepEqual(missed(report), [], formatReport(report));
  });

  it("page forms: sign-in, sign-up and checkout pay through their schemas and services, no error a page would show as 500", async () => {
    const report = await runFormFuzz({ runs: 30, seed: 5 });
    assert.deepEqual(missed(report), [], formatReport(report));
  });

  it("a NUL in a name is refused by the sign-up and checkout forms (it reached PostgreSQL as a 500)", () => {
    assert.equal(signUpSchema.safeParse({ name: "a\u0000b", email: "nul@example.com", password: "password1" }).success, false);
    assert.equal(checkoutBuyerSchema.safeParse({ name: "a\u0000b", email: "nul@example.com", country: "US" }).success, false);
    assert.equal(checkoutBuyerSchema.safeParse({ name: "Ada", email: "nul@example.com", country: "US" }).success, true);
  });
});
