import { expect, test } from "@playwright/test";
import { closeDb } from "@/db/client";
import { runHttpFormFuzz } from "@/reliability/fuzz-forms-http";
import { formatReport, missed } from "@/reliability/lib/figures";

// The reduced form of the HTTP page-form fuzz (reliability/fuzz-forms-http.ts,
// `REL_URLS=... npm run reliability:fuzz`): sign-in, sign-up and checkout pay
// forms posted to the built app as a browser without JavaScript posts them,
// with generated values. No 5xx; a refused post stores nothing. A fixed seed,
// so a failure reproduces with REL_SEED and REL_FORM_RUNS.

test.afterAll(async () => {
  await closeDb();
});

test("page forms fuzzed over HTTP: no 5xx, nothing stored from a refused post", async ({ baseURL }) => {
  test.setTimeout(180_000);
  const report = await runHttpFormFuzz({ baseUrl: baseURL!, runs: 20, seed: 17 });
  expect(missed(report), formatReport(report)).toEqual([]);
});
