// Revocation across running servers: with two (or more) servers on one database,
// a third process revokes, rolls (no grace), suspends and reinstates, and this
// prints how long until each server answers accordingly (the promise: under one
// second; tests/integration/credential-cache.test.ts checks the same in CI).
//
//   node --import tsx scripts/serve.ts start -p 3200 & node --import tsx scripts/serve.ts start -p 3201 &
//   BENCH_URLS=http://localhost:3200,http://localhost:3201 npx tsx bench/revocation.ts
import { closeDb, getDb } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { randomBase62 } from "@/server/ids";
import { rollKey } from "@/server/services/keys";
import { reinstatePartner, suspendPartner } from "@/server/services/partner-standing";
import { createCredential, createPartner, revokeCredential } from "@/server/services/partners";
import { signRequest, type PartnerCredentials } from "@/server/signing/client";

const servers = (process.env.BENCH_URLS ?? "http://localhost:3200,http://localhost:3201").split(",").map((url) => url.replace(/\/$/, ""));
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const path = "/api/partner/v1/availability?domain=revocation-bench.com";
process.env.DATABASE_URL ??= await ensureDatabase();
const db = getDb();

async function status(base: string, credential: PartnerCredentials): Promise<number> {
  return (await fetch(base + path, { headers: signRequest(credential, { method: "GET", url: path }) })).status;
}

/** Milliseconds from t0 until each server answers `expected` (-1: not within 5 s). */
function until(credential: PartnerCredentials, expected: number, t0: number): Promise<number[]> {
  return Promise.all(
    servers.map(async (base) => {
      for (;;) {
        if ((await status(base, credential)) === expected) return Math.round(performance.now() - t0);
        if (performance.now() - t0 > 5000) return -1;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }),
  );
}

/** A partner and key, used a few times on every server so each has it cached. */
async function warmKey() {
  const suffix = randomBase62(8).toLowerCase();
  const partner = await createPartner(db, { name: `Revocation ${suffix}`, email: `revocation-${suffix}@bench.example`, paymentModel: "mor" });
  const created = await createCredential(db, { partnerId: partner.partnerId, environment: "sandbox", scopes: ["search"] });
  const credential = { keyId: created.keyId, secret: created.secret };
  for (let i = 0; i < 5; i++) for (const base of servers) if ((await status(base, credential)) !== 200) throw new Error(`${base} refused a fresh key`);
  return { partnerId: partner.partnerId, credential };
}

console.log(`| round | change | ms until refused/accepted on ${servers.join(" / ")} |\n|---|---|---|`);
for (let round = 1; round <= rounds; round++) {
  let key = await warmKey();
  let t0 = performance.now();
  await revokeCredential(db, { keyId: key.credential.keyId });
  console.log(`| ${round} | revoke | ${(await until(key.credential, 401, t0)).join(" / ")} |`);
  key = await warmKey();
  t0 = performance.now();
  await rollKey(db, { partnerId: key.partnerId, environment: "sandbox", keyId: key.credential.keyId, grace: "none" }, { type: "partner" });
  console.log(`| ${round} | roll, no grace (old secret) | ${(await until(key.credential, 401, t0)).join(" / ")} |`);
  key = await warmKey();
  t0 = performance.now();
  await suspendPartner(db, { partnerId: key.partnerId, reason: "revocation bench" }, { type: "system" });
  console.log(`| ${round} | suspend | ${(await until(key.credential, 403, t0)).join(" / ")} |`);
  t0 = performance.now();
  await reinstatePartner(db, { partnerId: key.partnerId, reason: "revocation bench" }, { type: "system" });
  console.log(`| ${round} | reinstate (accepted again) | ${(await until(key.credential, 200, t0)).join(" / ")} |`);
}
await closeDb();
