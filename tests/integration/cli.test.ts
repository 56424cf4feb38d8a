import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { credentials, partners, users } from "@/db/schema";
import { openSecret } from "@/server/crypto";
import { scopes } from "@/server/http/contract";
import { runAdmin as admin } from "../helpers/cli";

// The operations CLI as staff and scripted tests use it: a real process against
// the test database, one JSON document on stdout or a JSON error on stderr.


async function ok(...args: string[]): Promise<Record<string, unknown>> {
  const run = await admin(...args, "--json");
  assert.equal(run.code, 0, `admin ${args.join(" ")} failed: ${run.stderr}`);
  assert.equal(run.stdout.trim().split("\n").length, 1, "exactly one compact JSON document");
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

async function fails(code: string, ...args: string[]): Promise<string> {
  const run = await admin(...args, "--json");
  assert.equal(run.code, 1, `admin ${args.join(" ")} should fail, printed ${run.stdout}`);
  assert.equal(run.stdout, "", "nothing on stdout on failure");
  const body = JSON.parse(run.stderr) as { error: { code: string; message: string } };
  assert.equal(body.error.code, code, body.error.message);
  return body.error.message;
}

const suffix = randomBytes(5).toString("hex");
const email = (who: string) => `${who}-${suffix}@cli.test.example`;
const domain = (label: string) => `${label}-${suffix}.com`;

after(() => closeDb());

describe("admin CLI", () => {
  test("help lists every command; an unknown command is a validation_error naming them", async () => {
    const help = (await ok("help")) as { commands: { command: string }[] };
    const names = help.commands.map((c) => c.command.split(" ")[0]);
    for (const name of ["partner:create", "partner:approve-live", "credential:create", "credential:revoke", "domain:add", "domain:set-price", "domain:remove", "user:create", "seed"]) {
      assert.ok(names.includes(name), `help lists ${name}`);
    }
    const message = await fails("validation_error", "partner:delete");
    assert.match(message, /partner:create/);
  });

  test("partner:create makes a partner with a dashboard login; a second one with that email is a conflict", async () => {
    const created = await ok("partner:create", "--name", "CLI Affiliates", "--email", email("NonMor").toUpperCase(), "--non-mor", "--affiliate", "--password", "long-enough-pw");
    assert.match(String(created.partner_id), /^ptn_/);
    assert.equal(created.email, email("nonmor"));
    const [partner] = await getDb().select().from(partners).where(eq(partners.id, String(created.partner_id)));
    assert.equal(partner?.paymentModel, "non_mor");
    assert.equal(partner?.isAffiliate, true);
    assert.equal(partner?.liveApprovedAt, null);
    const [user] = await getDb().select().from(users).where(eq(users.email, email("nonmor")));
    assert.equal(user?.role, "partner");
    assert.equal(user?.partnerId, partner?.id);
    await fails("conflict", "partner:create", "--name", "Again", "--email", email("nonmor"));
  });

  test("bad flags fail as validation_error naming the flag", async () => {
    assert.match(await fails("validation_error", "partner:create", "--name", "No Email"), /--email/);
    assert.match(await fails("validation_error", "partner:create", "--name", "X", "--email", email("x"), "--bogus", "1"), /--bogus/);
    assert.match(await fails("validation_error", "partner:create", "--name", "X", "--email", email("x"), "--mor", "--non-mor"), /--non-mor/);
    assert.match(await fails("validation_error", "partner:create", "--name", "X", "--email", "not-an-email"), /--email/);
    assert.match(await fails("validation_error", "domain:add", "--env", "sandbox", "--name", domain("p"), "--price", "12.50"), /--price/);
    assert.match(await fails("validation_error", "domain:add", "--env", "staging", "--name", domain("p"), "--price", "1250"), /--env/);
    assert.match(await fails("validation_error", "credential:create", "--partner", "ptn_x", "--env", "sandbox", "--scopes", "search,teleport"), /--scopes/);
    assert.match(await fails("validation_error", "credential:revoke", "--key"), /--key/);
  });

  test("credentials: sandbox at once, live only after approval, revoke once", async () => {
    const { partner_id: partnerId } = await ok("partner:create", "--name", "CLI Registrar", "--email", email("mor"), "--mor");
    const sandbox = await ok("credential:create", "--partner", String(partnerId), "--env", "sandbox", "--scopes", "search,buy,search");
    assert.match(String(sandbox.key_id), /^pk_sandbox_[0-9A-Za-z]{24}$/);
    assert.match(String(sandbox.secret), /^sk_sandbox_[0-9A-Za-z]{40}$/);
    assert.equal(sandbox.env, "sandbox");
    assert.deepEqual(sandbox.scopes, ["search", "buy"]);
    const [row] = await getDb().select().from(credentials).where(eq(credentials.keyId, String(sandbox.key_id)));
    assert.ok(row, "stored");
    assert.notEqual(row.secretSealed, sandbox.secret, "stored sealed, not in clear");
    assert.equal(openSecret(row.secretSealed, row.keyId), sandbox.secret);

    const live = ["credential:create", "--partner", String(partnerId), "--env", "live", "--scopes", scopes.join(",")];
    await fails("forbidden", ...live);
    const approved = await ok("partner:approve-live", "--partner", String(partnerId));
    assert.ok(!Number.isNaN(Date.parse(String(approved.live_approved_at))));
    const liveKey = await ok(...live);
    assert.match(String(liveKey.key_id), /^pk_live_/);
    assert.deepEqual(liveKey.scopes, [...scopes]);

    const revoked = await ok("credential:revoke", "--key", String(sandbox.key_id));
    assert.equal(revoked.key_id, sandbox.key_id);
    assert.ok(!Number.isNaN(Date.parse(String(revoked.revoked_at))));
    await fails("not_found", "credential:revoke", "--key", String(sandbox.key_id));
    await fails("not_found", "credential:revoke", "--key", `pk_sandbox_unknown${suffix}`);
    await fails("not_found", "credential:create", "--partner", `ptn_missing${suffix}`, "--env", "sandbox", "--scopes", "search");
    await fails("not_found", "partner:approve-live", "--partner", `ptn_missing${suffix}`);
  });

  test("domain:add, set-price and remove answer the listing JSON", async () => {
    const name = domain("Cli-Listing");
    assert.deepEqual(await ok("domain:add", "--env", "sandbox", "--name", name.toUpperCase(), "--price", "125000", "--floor", "90000"), {
      domain: name.toLowerCase(),
      sale_price_cents: 125000,
      floor_price_cents: 90000,
      currency: "USD",
    });
    await fails("conflict", "domain:add", "--env", "sandbox", "--name", name, "--price", "5000");
    // The same name lists separately in live: environments are partitioned.
    await ok("domain:add", "--env", "live", "--name", name, "--price", "7000", "--currency", "eur");
    const repriced = await ok("domain:set-price", "--env", "sandbox", "--name", name, "--price", "150000");
    assert.equal(repriced.sale_price_cents, 150000);
    assert.equal(repriced.floor_price_cents, 90000);
    await fails("validation_error", "domain:set-price", "--env", "sandbox", "--name", name, "--price", "100", "--floor", "500");
    await fails("not_found", "domain:set-price", "--env", "sandbox", "--name", domain("never-listed"), "--price", "100");
    assert.equal((await ok("domain:remove", "--env", "sandbox", "--name", name)).domain, name.toLowerCase());
    await fails("not_found", "domain:remove", "--env", "sandbox", "--name", name);
    await fails("validation_error", "domain:add", "--env", "sandbox", "--name", "not a domain", "--price", "100");
  });

  test("user:create makes a marketplace account; duplicates conflict", async () => {
    const user = await ok("user:create", "--email", email("buyer"), "--password", "buyer-password");
    assert.match(String(user.user_id), /^usr_/);
    const [row] = await getDb().select().from(users).where(eq(users.id, String(user.user_id)));
    assert.equal(row?.role, "customer");
    await fails("conflict", "user:create", "--email", email("BUYER"), "--password", "buyer-password");
    assert.match(await fails("validation_error", "user:create", "--email", email("b2"), "--password", "short"), /--password/);
  });

  test("without --json the same JSON is printed pretty; seed is idempotent", async () => {
    const run = await admin("domain:add", "--env", "sandbox", "--name", domain("pretty"), "--price", "9900");
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.split("\n").length > 3, "pretty-printed");
    assert.equal((JSON.parse(run.stdout) as { domain: string }).domain, domain("pretty"));
    await ok("seed");
    const again = await ok("seed");
    assert.equal(again.seeded, false);
  });
  test("console commands: roll a key with a grace, set its allow-list, decide production access", async () => {
    const { partner_id: partnerId } = await ok("partner:create", "--name", "CLI Console", "--email", email("console"), "--mor");
    const key = await ok("credential:create", "--partner", String(partnerId), "--env", "sandbox", "--scopes", "search");
    const rolled = await ok("credential:roll", "--key", String(key.key_id), "--grace", "24h");
    assert.match(String(rolled.secret), /^sk_sandbox_/);
    assert.notEqual(rolled.secret, key.secret);
    assert.ok(Date.parse(String(rolled.previous_secret_expires_at)) > Date.now() + 23 * 3_600_000);
    const [row] = await getDb().select().from(credentials).where(eq(credentials.keyId, String(key.key_id)));
    assert.equal(openSecret(row!.secretSealed, String(key.key_id)), rolled.secret);
    assert.equal(openSecret(row!.previousSecretSealed!, String(key.key_id)), key.secret, "the old secret is kept for the grace");
    assert.match(await fails("validation_error", "credential:roll", "--key", String(key.key_id), "--grace", "2h"), /--grace/);
    const listed = await ok("credential:allow-list", "--key", String(key.key_id), "--cidrs", "203.0.113.0/24,198.51.100.7");
    assert.deepEqual(listed.allowedCidrs, ["203.0.113.0/24", "198.51.100.7/32"]);
    assert.match(await fails("validation_error", "credential:allow-list", "--key", String(key.key_id), "--cidrs", "300.1.1.1"), /not an IP/);

    const { requestProductionAccess } = await import("@/server/services/account");
    const [user] = await getDb().select().from(users).where(eq(users.partnerId, String(partnerId)));
    const request = await requestProductionAccess(
      getDb(),
      { partnerId: String(partnerId), requestedBy: user!.id, website: "https://cli.example", useCase: "Selling premium names to hosting customers.", expectedMonthlyOrders: 5 },
      { type: "partner" },
    );
    const pending = (await admin("partner:access-requests", "--status", "pending", "--json")).stdout;
    assert.ok(pending.includes(request.id));
    const decided = await ok("partner:access-decide", "--request", request.id, "--approve", "--note", "welcome");
    assert.equal(decided.status, "approved");
    const [partner] = await getDb().select().from(partners).where(eq(partners.id, String(partnerId)));
    assert.ok(partner?.liveApprovedAt, "approval grants live access");
    await fails("not_found", "partner:access-decide", "--request", request.id, "--decline");
  });
});
