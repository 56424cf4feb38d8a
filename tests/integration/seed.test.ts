import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { closeDb, createPool, getDb } from "@/db/client";
import { domains, partners, users, type Environment } from "@/db/schema";
import { demoLogins, getDemoCredential, getExampleDomain, seedDemoData } from "@/db/seed";
import { demoInventories, MAX_PRICE_CENTS, MIN_PRICE_CENTS } from "@/db/seed-data";
import { scopes } from "@/server/http/contract";
import { withFreshDatabase } from "../helpers/fresh-database";

// The demo seed: once per database however many starters race, the same names
// on every machine, and live inventory that never repeats a sandbox name.

after(() => closeDb());

async function seededNames(environment: Environment): Promise<Set<string>> {
  const rows = await getDb()
    .select({ name: domains.name })
    .from(domains)
    .where(and(eq(domains.environment, environment), sql`${domains.metadata}->>'source' = 'seed'`));
  return new Set(rows.map((r) => r.name));
}

describe("demo seed", () => {
  test("on a fresh database, two racing seeders (separate pools, as two processes) seed exactly once", async () => {
    await withFreshDatabase(async (url) => {
      const [a, b] = [createPool(url, 2), createPool(url, 2)];
      try {
        const results = await Promise.all([seedDemoData(a.db), seedDemoData(b.db)]);
        assert.deepEqual(results.map((r) => r.seeded).sort(), [false, true]);
        const [counts] = await a.sql<{ sandbox: number; live: number; partners: number }[]>`
          select count(*) filter (where environment = 'sandbox')::int as sandbox,
                 count(*) filter (where environment = 'live')::int as live,
                 (select count(*)::int from partners) as partners
          from domains`;
        const generated = demoInventories();
        assert.deepEqual(counts, { sandbox: generated.sandbox.length, live: generated.live.length, partners: 2 });
        const names = await a.sql<{ name: string }[]>`select name from domains where environment = 'sandbox'`;
        assert.deepEqual(names.map((r) => r.name).sort(), generated.sandbox.map((d) => d.name).sort());
      } finally {
        await Promise.all([a.sql.end(), b.sql.end()]);
      }
    });
  });

  test("concurrent and repeated seeding leaves exactly one set of demo data", async () => {
    const results = await Promise.all([seedDemoData(getDb()), seedDemoData(getDb()), seedDemoData(getDb())]);
    assert.ok(results.filter((r) => r.seeded).length <= 1, "at most one caller seeds");
    assert.equal((await seedDemoData(getDb())).seeded, false, "a seeded database is left alone");

    for (const login of [demoLogins.mor, demoLogins.nonMor]) {
      const rows = await getDb().select().from(partners).where(eq(partners.email, login.email));
      assert.equal(rows.length, 1, `one partner ${login.email}`);
    }
    const [mor] = await getDb().select().from(partners).where(eq(partners.email, demoLogins.mor.email));
    assert.equal(mor?.paymentModel, "mor");
    assert.ok(mor?.liveApprovedAt, "the MoR demo partner is live approved");
    const [nonMor] = await getDb().select().from(partners).where(eq(partners.email, demoLogins.nonMor.email));
    assert.equal(nonMor?.paymentModel, "non_mor");
    assert.equal(nonMor?.isAffiliate, true);
    const roles = await getDb()
      .select({ email: users.email, role: users.role })
      .from(users)
      .where(sql`${users.email} in (${demoLogins.admin.email}, ${demoLogins.buyer.email})`);
    assert.deepEqual(new Map(roles.map((r) => [r.email, r.role])), new Map([[demoLogins.admin.email, "admin"], [demoLogins.buyer.email, "customer"]]));
  });

  test("the demo credentials open and carry the agreed scopes", async () => {
    const mor = await getDemoCredential(getDb(), "mor");
    assert.match(mor.keyId, /^pk_sandbox_/);
    assert.match(mor.secret, /^sk_sandbox_/);
    assert.deepEqual([...mor.scopes].sort(), [...scopes].sort());
    const nonMor = await getDemoCredential(getDb(), "nonMor");
    assert.deepEqual([...nonMor.scopes].sort(), ["broker", "embed", "refer", "report", "search", "webhook"]);
    assert.match((await getExampleDomain(getDb())) ?? "", /\.com$/);
  });

  test("the database holds exactly the generated inventories; live is disjoint from sandbox", async () => {
    const generated = demoInventories();
    const sandbox = await seededNames("sandbox");
    const live = await seededNames("live");
    assert.ok(sandbox.size >= 10_000, `at least 10,000 sandbox domains, got ${sandbox.size}`);
    assert.ok(live.size >= 1_000, `a live inventory, got ${live.size}`);
    // A name listed by hand before seeding keeps its own row, so compare one way strictly.
    const generatedNames = new Set(generated.sandbox.map((d) => d.name));
    for (const name of sandbox) assert.ok(generatedNames.has(name), `${name} was not generated`);
    const stored = await getDb()
      .select({ count: sql<number>`count(*)::int` })
      .from(domains)
      .where(and(eq(domains.environment, "sandbox"), inArray(domains.name, [...generatedNames])));
    assert.equal(stored[0]?.count, generated.sandbox.length, "every generated sandbox name is listed");
    for (const name of live) assert.ok(!sandbox.has(name), `${name} is in both inventories`);
  });

  test("generation is reproducible and prices look like a marketplace", () => {
    const first = demoInventories();
    const second = demoInventories();
    assert.deepEqual(first, second);
    const all = [...first.sandbox, ...first.live];
    assert.equal(new Set(first.sandbox.map((d) => d.name)).size, first.sandbox.length, "sandbox names are distinct");
    for (const d of all) {
      assert.ok(d.priceCents >= MIN_PRICE_CENTS && d.priceCents <= MAX_PRICE_CENTS, `${d.name} price ${d.priceCents}`);
      assert.ok(d.floorPriceCents >= d.priceCents * 0.5 - 100 && d.floorPriceCents <= d.priceCents * 0.9, `${d.name} floor`);
      assert.equal(d.name, `${d.label}.${d.tld}`);
      assert.equal(d.label.replace(/-/g, ""), d.tokens.replace(/ /g, ""), `${d.name} is built from its tokens`);
    }
    const median = (tld: string) => {
      const prices = first.sandbox.filter((d) => d.tld === tld).map((d) => d.priceCents).sort((a, b) => a - b);
      return prices[prices.length >> 1] ?? 0;
    };
    assert.ok(median("com") > median("xyz"), ".com sells dearer than .xyz");
    const cheap = first.sandbox.filter((d) => d.priceCents < 5_000_00).length;
    assert.ok(cheap > first.sandbox.length / 2, "prices skew low");
    assert.ok(new Set(first.sandbox.map((d) => d.vertical)).size >= 12, "many verticals");
  });
});
