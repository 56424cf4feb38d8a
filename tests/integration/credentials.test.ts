import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { auditLog, credentials } from "@/db/schema";
import { openSecret } from "@/server/crypto";
import { AppError } from "@/server/errors";
import { createCredential, createPartner, revokeCredential } from "@/server/services/partners";
import { uniqueSuffix } from "../helpers/partner";

after(closeDb);

describe("credentials", () => {
  it("issue key ids and secrets in the documented formats, sealed at rest", async () => {
    const db = getDb();
    const suffix = uniqueSuffix();
    const { partnerId } = await createPartner(db, { name: "Keys", email: `keys-${suffix}@test.example`, paymentModel: "mor" });
    const created = await createCredential(db, { partnerId, environment: "sandbox", scopes: ["search", "buy", "search"] });
    assert.match(created.keyId, /^pk_sandbox_[0-9A-Za-z]{24}$/);
    assert.match(created.secret, /^sk_sandbox_[0-9A-Za-z]{40}$/);
    assert.deepEqual(created.scopes, ["search", "buy"]);
    const [row] = await db.select().from(credentials).where(eq(credentials.keyId, created.keyId));
    assert.ok(row);
    assert.ok(!JSON.stringify(row).includes(created.secret), "the secret is never stored in the clear");
    assert.equal(openSecret(row.secretSealed, created.keyId), created.secret);
    const audit = await db.select().from(auditLog).where(eq(auditLog.targetId, created.keyId));
    assert.equal(audit[0]?.action, "credential.created");
    assert.ok(!JSON.stringify(audit).includes(created.secret), "nor in the audit log");
  });

  it("issue live keys only after production access is approved", async () => {
    const db = getDb();
    const suffix = uniqueSuffix();
    const pending = await createPartner(db, { name: "Pending", email: `pending-${suffix}@test.example`, paymentModel: "mor" });
    await assert.rejects(
      createCredential(db, { partnerId: pending.partnerId, environment: "live", scopes: ["search"] }),
      (error: unknown) => error instanceof AppError && error.code === "forbidden",
    );
    const approved = await createPartner(db, {
      name: "Approved",
      email: `approved-${suffix}@test.example`,
      paymentModel: "mor",
      liveApproved: true,
    });
    const live = await createCredential(db, { partnerId: approved.partnerId, environment: "live", scopes: ["search"] });
    assert.match(live.keyId, /^pk_live_/);
    assert.match(live.secret, /^sk_live_/);
  });

  it("revoke once; a second revoke or an unknown key is not_found", async () => {
    const db = getDb();
    const suffix = uniqueSuffix();
    const { partnerId } = await createPartner(db, { name: "Revoke", email: `revoke-${suffix}@test.example`, paymentModel: "mor" });
    const created = await createCredential(db, { partnerId, environment: "sandbox", scopes: ["search"] });
    const revoked = await revokeCredential(db, { keyId: created.keyId });
    assert.ok(revoked.revokedAt instanceof Date);
    await assert.rejects(revokeCredential(db, { keyId: created.keyId }), (e: unknown) => e instanceof AppError && e.code === "not_found");
    await assert.rejects(revokeCredential(db, { keyId: "pk_sandbox_nope" }), (e: unknown) => e instanceof AppError && e.code === "not_found");
  });

  it("refuse a second partner with the same email", async () => {
    const db = getDb();
    const email = `dupe-${uniqueSuffix()}@test.example`;
    await createPartner(db, { name: "One", email, paymentModel: "mor" });
    await assert.rejects(
      createPartner(db, { name: "Two", email: email.toUpperCase(), paymentModel: "non_mor" }),
      (e: unknown) => e instanceof AppError && e.code === "conflict",
    );
  });
});
