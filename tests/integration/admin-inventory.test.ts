import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { and, eq, inArray, like } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { auditLog, domainTerms, domains, searchVocabulary, type Environment } from "@/db/schema";
import type { SessionUser } from "@/server/auth/session";
import { searchPublicDomains } from "@/server/public/search";
import { searchDomains } from "@/server/services/discovery";
import { addDomain, removeDomain } from "@/server/services/inventory";
import { IMPORT_MAX_ROWS, importListings } from "@/server/services/inventory-import";
import { createUser } from "@/server/services/partners";
import { createCaller } from "@/server/trpc/routers/_app";
import { runAdmin } from "../helpers/cli";
import { createTestPartner, uniqueSuffix } from "../helpers/partner";
import { isCode } from "../helpers/trpc";
import { opaqueTag } from "../helpers/tags";

// The inventory screen's procedures and the domain:* CLI against the real
// database: imports are all or nothing, imported names are found by the next
// search, the console and the CLI import one file the same way, and every
// change leaves an audit row with before, after and the reason.

// Letters only: the search segments digits off, and a tag must stay one word.
const newTag = () => opaqueTag("zq");
let admin: ReturnType<typeof createCaller>;
let adminId: string;

before(async () => {
  const created = await createUser(getDb(), { email: `staff-${uniqueSuffix()}@ops.example`, password: "staff-password-1", role: "admin" });
  adminId = created.userId;
  const user: SessionUser = { id: adminId, email: created.email, name: null, role: "admin", partnerId: null, partnerRole: null };
  admin = createCaller({ db: getDb(), user, environment: "sandbox" });
});
after(closeDb);

const listingsLike = (environment: Environment, tag: string) =>
  getDb()
    .select()
    .from(domains)
    .where(and(eq(domains.environment, environment), like(domains.name, `%${tag}%`)))
    .orderBy(domains.name);
const importAudits = (sha256: string) =>
  getDb()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "domain.imported"), eq(auditLog.targetType, "inventory")))
    .then((rows) => rows.filter((r) => (r.data as { sha256?: string }).sha256 === sha256));

async function csvFile(text: string): Promise<string> {
  const file = path.join(tmpdir(), `inventory-${uniqueSuffix()}.csv`);
  await writeFile(file, text);
  return file;
}

describe("admin inventory", () => {
  it("one bad row in 500 imports nothing; the report names its line and column", async () => {
    const tag = newTag();
    const lines = ["name,price_cents,floor_cents,currency"];
    for (let i = 0; i < 500; i++) lines.push(`${tag}-${i}.com,${10_000 + i},,USD`);
    lines[250] = `${tag}-249.com,12.50,,USD`; // line 251 of the file: a decimal price
    const csvText = `${lines.join("\n")}\n`;
    const report = await admin.admin.inventory.import({ environment: "sandbox", csvText, reason: "Spring batch from the registrar" });
    assert.equal(report.applied, false);
    assert.equal(report.rows, 500);
    assert.equal(report.problemCount, 1);
    assert.deepEqual(report.problems[0], {
      line: 251,
      column: "price_cents",
      message: '"12.50" is not a whole number of minor units (cents: 1250.00 is written 125000)',
    });
    assert.equal((await listingsLike("sandbox", tag)).length, 0, "nothing written");
    assert.deepEqual(await importAudits(report.sha256), [], "no audit row for an import that did not happen");

    // The same file fixed imports all 500, in one audit row.
    lines[250] = `${tag}-249.com,10249,,USD`;
    const fixed = await admin.admin.inventory.import({ environment: "sandbox", csvText: lines.join("\n"), reason: "Spring batch from the registrar" });
    assert.equal(fixed.applied, true);
    assert.equal(fixed.added, 500);
    assert.equal((await listingsLike("sandbox", tag)).length, 500);
    const audits = await importAudits(fixed.sha256);
    assert.equal(audits.length, 1);
    assert.equal(audits[0]?.actorType, "admin");
    assert.equal(audits[0]?.actorId, adminId);
    const data = audits[0]?.data as Record<string, unknown>;
    assert.equal(data.reason, "Spring batch from the registrar");
    assert.equal(data.added, 500);
    assert.equal((data.after as { listed: number }).listed - (data.before as { listed: number }).listed, 500);
  });

  it("checks names, prices, duplicates and the inventory itself; a dry run writes nothing", async () => {
    const tag = newTag();
    await addDomain(getDb(), { environment: "sandbox", name: `${tag}sold.com`, priceCents: 5_000 });
    await getDb().update(domains).set({ status: "sold" }).where(eq(domains.name, `${tag}sold.com`));
    await addDomain(getDb(), { environment: "sandbox", name: `${tag}listed.com`, priceCents: 5_000 });
    const csvText = [
      "Name,Price_Cents,Floor_Cents,Currency,Action",
      `${tag}ok.com,1000,,,`,
      "not a domain,1000,,,",
      `${tag}floor.com,1000,2000,,`,
      `${tag.toUpperCase()}OK.COM,1000,,,`,
      `${tag}sold.com,1000,,,`,
      `${tag}listed.com,1000,,,`,
      `${tag}never.com,1000,,,reprice`,
      `${tag}cur.com,1000,,dollars,`,
      `${tag}act.com,1000,,,delete`,
      "",
      `${tag}zero.com,0,,,`,
    ].join("\r\n");
    const report = await admin.admin.inventory.import({ environment: "sandbox", csvText, dryRun: true });
    assert.deepEqual(
      report.problems.map((p) => [p.line, p.column]),
      [
        [3, "name"],
        [4, "floor_cents"],
        [5, "name"],
        [6, "name"],
        [7, "name"],
        [8, "name"],
        [9, "currency"],
        [10, "action"],
        [12, "price_cents"],
      ],
    );
    assert.match(report.problems[2]!.message, /also on line 2/);
    assert.match(report.problems[3]!.message, /is sold in sandbox/);
    assert.match(report.problems[4]!.message, /already listed.*reprice/);
    assert.equal(report.added, 1, "the one good row is counted");
    assert.equal((await listingsLike("sandbox", `${tag}ok`)).length, 0);

    // Whole-file refusals: no header columns, too many rows, too many bytes, no reason.
    const header = await importListings(getDb(), { environment: "sandbox", csvText: "domain,price\nx.com,1\n", dryRun: true }, { type: "cli" });
    assert.deepEqual(header.problems.map((p) => p.column), ["domain", "price", "name", "price_cents"]);
    await assert.rejects(importListings(getDb(), { environment: "sandbox", csvText: "name,price_cents\n\n", dryRun: true }, { type: "cli" }), /no rows/);
    const tooMany = `name,price_cents\n${Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => `${tag}-${i}.com,100`).join("\n")}`;
    await assert.rejects(importListings(getDb(), { environment: "sandbox", csvText: tooMany, dryRun: true }, { type: "cli" }), /at most 10,000/);
    await assert.rejects(
      importListings(getDb(), { environment: "sandbox", csvText: `name,price_cents\n${"x".repeat(2 * 1024 * 1024)}`, dryRun: true }, { type: "cli" }),
      /at most 2 MB/,
    );
    await assert.rejects(admin.admin.inventory.import({ environment: "sandbox", csvText: `name,price_cents\n${tag}ok.com,1000\n` }), isCode("validation_error"));
    assert.equal((await listingsLike("sandbox", `${tag}ok`)).length, 0);
  });

  it("imported names are found by the next public and partner search, postings and vocabulary included", async () => {
    const tag = newTag();
    const csvText = `name,price_cents\n${tag}gelato.com,88000\n${tag}-gelato.io,12000\n`;
    const report = await admin.admin.inventory.import({ environment: "live", csvText, reason: "New live names" });
    assert.equal(report.applied, true);
    const publicHits = await searchPublicDomains(getDb(), { query: `${tag} gelato`, priced: true });
    // Earlier runs' gelato names may match too; this run's two must be there.
    assert.deepEqual(publicHits.results.map((r) => r.domain).filter((d) => d.startsWith(tag)).sort(), [`${tag}-gelato.io`, `${tag}gelato.com`]);
    assert.equal(publicHits.results.find((r) => r.domain === `${tag}gelato.com`)?.sale_price_cents, 88_000);
    // Postings (kept by the triggers) hold the row's words, and each word is in the vocabulary.
    const [listing] = await listingsLike("live", `${tag}-gelato`);
    const words = listing!.tokens.split(" ").sort();
    const terms = await getDb().select().from(domainTerms).where(eq(domainTerms.name, `${tag}-gelato.io`));
    assert.deepEqual(terms.map((t) => t.term).sort(), words);
    const vocabulary = await getDb().select({ word: searchVocabulary.word }).from(searchVocabulary).where(inArray(searchVocabulary.word, words));
    assert.equal(vocabulary.length, words.length, "the new words are embedded");

    const { partnerId } = await createTestPartner({ scopes: ["search"] });
    const sandboxText = `name,price_cents\n${tag}sorbet.com,5000\n`;
    await admin.admin.inventory.import({ environment: "sandbox", csvText: sandboxText, reason: "Sandbox names" });
    const hits = await searchDomains(getDb(), { environment: "sandbox", partnerId, q: `${tag} sorbet`, limit: 5 });
    assert.equal(hits.hits[0]?.name, `${tag}sorbet.com`);
    const liveHits = await searchPublicDomains(getDb(), { query: `${tag} sorbet`, priced: true });
    assert.ok(!liveHits.results.some((r) => r.domain === `${tag}sorbet.com`), "sandbox stays out of live search");
  });

  it("the CLI and the console import the same file with the same outcome", async () => {
    // The same rows under a different tag for each, over the same starting inventory.
    const prepare = async (tag: string) => {
      await addDomain(getDb(), { environment: "sandbox", name: `${tag}keep.com`, priceCents: 50_000, floorPriceCents: 40_000, currency: "EUR" });
      await addDomain(getDb(), { environment: "sandbox", name: `${tag}back.com`, priceCents: 9_000 });
      await removeDomain(getDb(), { environment: "sandbox", name: `${tag}back.com` });
      return [
        "name,price_cents,floor_cents,currency,action",
        `${tag}new.com,125000,90000,,`,
        `"${tag}Quoted.COM.",7000,,eur,add`,
        `${tag}back.com,8000,,,`,
        `${tag}keep.com,60000,45000,,reprice`,
      ].join("\n");
    };
    const outcome = async (how: "console" | "cli") => {
      const tag = newTag();
      const text = await prepare(tag);
      let report: Record<string, unknown>;
      if (how === "console") report = { ...(await admin.admin.inventory.import({ environment: "sandbox", csvText: text, reason: "Batch from Q3" })) };
      else {
        const run = await runAdmin("domain:import", "--env", "sandbox", "--file", await csvFile(text), "--reason", "Batch from Q3", "--json");
        assert.equal(run.code, 0, run.stderr);
        report = JSON.parse(run.stdout) as Record<string, unknown>;
      }
      const rows = (await listingsLike("sandbox", tag)).map((r) => ({
        name: r.name.replace(tag, "TAG"),
        status: r.status,
        price: r.priceCents,
        floor: r.floorPriceCents,
        currency: r.currency,
        tokens: r.tokens.replace(tag, "TAG"),
      }));
      const [audit] = await importAudits(String(report.sha256));
      const { sha256: _sha, before: _before, after: _after, ...data } = audit?.data as Record<string, unknown>;
      return { report: { ...report, sha256: "-" }, rows, audit: data };
    };
    const viaConsole = await outcome("console");
    const viaCli = await outcome("cli");
    assert.deepEqual(viaCli, viaConsole);
    assert.deepEqual(viaConsole.report, { environment: "sandbox", dryRun: false, applied: true, rows: 4, added: 2, relisted: 1, repriced: 1, problems: [], problemCount: 0, sha256: "-" });
    assert.deepEqual(
      viaConsole.rows.map((r) => [r.name, r.status, r.price, r.floor, r.currency]),
      [
        ["TAGback.com", "listed", 8000, null, "USD"],
        ["TAGkeep.com", "listed", 60000, 45000, "EUR"],
        ["TAGnew.com", "listed", 125000, 90000, "USD"],
        ["TAGquoted.com", "listed", 7000, null, "EUR"],
      ],
    );

    // A bad file: the CLI exits 1 naming the same lines the console reports, and writes nothing.
    const tag = newTag();
    const bad = `name,price_cents\n${tag}a.com,100\n${tag}a.com,200\n`;
    const consoleReport = await admin.admin.inventory.import({ environment: "sandbox", csvText: bad, reason: "dupes" });
    const run = await runAdmin("domain:import", "--env", "sandbox", "--file", await csvFile(bad), "--reason", "dupes", "--json");
    assert.equal(run.code, 1);
    const error = (JSON.parse(run.stderr) as { error: { code: string; details: { path: string; message: string }[] } }).error;
    assert.equal(error.code, "validation_error");
    assert.deepEqual(
      error.details,
      consoleReport.problems.map((p) => ({ path: `line ${p.line}: ${p.column}`, message: p.message })),
    );
    assert.equal((await listingsLike("sandbox", tag)).length, 0);
  });

  it("add, reprice and remove from the console write audit rows with before, after and the reason; the CLI takes --reason", async () => {
    const tag = newTag();
    const name = `${tag}audit.com`;
    const audits = async (listingId: string) => getDb().select().from(auditLog).where(eq(auditLog.targetId, listingId)).orderBy(auditLog.id);
    await admin.admin.inventory.add({ environment: "live", name: name.toUpperCase(), priceCents: 100_000, floorPriceCents: null, currency: "usd", reason: "Bought at auction" });
    await admin.admin.inventory.setPrice({ environment: "live", name, priceCents: 80_000, floorPriceCents: 70_000, currency: "USD", reason: "No offers in 90 days" });
    await assert.rejects(admin.admin.inventory.remove({ environment: "live", name, reason: "" }), isCode("validation_error"));
    await admin.admin.inventory.remove({ environment: "live", name, reason: "Owner asked to withdraw" });
    const [row] = await listingsLike("live", tag);
    assert.ok(row);
    assert.equal(row.status, "removed");
    const rows = await audits(row.id);
    assert.deepEqual(
      rows.map((r) => [r.action, r.actorType, r.actorId, r.environment, r.data]),
      [
        ["domain.added", "admin", adminId, "live", { name, before: null, after: { status: "listed", price_cents: 100_000, floor_price_cents: null, currency: "USD" }, reason: "Bought at auction" }],
        [
          "domain.repriced",
          "admin",
          adminId,
          "live",
          {
            name,
            before: { status: "listed", price_cents: 100_000, floor_price_cents: null, currency: "USD" },
            after: { status: "listed", price_cents: 80_000, floor_price_cents: 70_000, currency: "USD" },
            reason: "No offers in 90 days",
          },
        ],
        [
          "domain.removed",
          "admin",
          adminId,
          "live",
          {
            name,
            before: { status: "listed", price_cents: 80_000, floor_price_cents: 70_000, currency: "USD" },
            after: { status: "removed", price_cents: 80_000, floor_price_cents: 70_000, currency: "USD" },
            reason: "Owner asked to withdraw",
          },
        ],
      ],
    );
    // A price under the kept floor is refused rather than leaving floor above price.
    const relisted = await runAdmin("domain:add", "--env", "live", "--name", name, "--price", "90000", "--floor", "85000", "--reason", "Relisted after talks", "--json");
    assert.equal(relisted.code, 0, relisted.stderr);
    const under = await runAdmin("domain:set-price", "--env", "live", "--name", name, "--price", "50000", "--json");
    assert.equal(under.code, 1);
    assert.match(under.stderr, /floor/);
    const cliRemove = await runAdmin("domain:remove", "--env", "live", "--name", name, "--reason", "Sold privately", "--json");
    assert.equal(cliRemove.code, 0, cliRemove.stderr);
    const last = (await audits(row.id)).slice(-2);
    assert.deepEqual(
      last.map((r) => [r.action, r.actorType, (r.data as { reason: string }).reason, (r.data as { before: { status: string } }).before.status]),
      [
        ["domain.added", "cli", "Relisted after talks", "removed"],
        ["domain.removed", "cli", "Sold privately", "listed"],
      ],
    );
  });

  it("lists one environment newest first by part of the name and status, a page at a time", async () => {
    const tag = newTag();
    for (const suffix of ["a", "b", "c"]) await addDomain(getDb(), { environment: "sandbox", name: `${tag}${suffix}.com`, priceCents: 1_000 });
    await removeDomain(getDb(), { environment: "sandbox", name: `${tag}b.com` });
    const first = await admin.admin.inventory.list({ environment: "sandbox", q: tag.toUpperCase(), limit: 2 });
    assert.deepEqual(first.listings.map((l) => l.name), [`${tag}c.com`, `${tag}b.com`]);
    assert.ok(first.nextCursor);
    const second = await admin.admin.inventory.list({ environment: "sandbox", q: tag, limit: 2, cursor: first.nextCursor });
    assert.deepEqual(second.listings.map((l) => l.name), [`${tag}a.com`]);
    assert.equal(second.nextCursor, null);
    const removed = await admin.admin.inventory.list({ environment: "sandbox", q: tag, status: "removed" });
    assert.deepEqual(removed.listings.map((l) => l.name), [`${tag}b.com`]);
    assert.equal((await admin.admin.inventory.list({ environment: "live", q: tag })).listings.length, 0);
    await assert.rejects(admin.admin.inventory.list({ environment: "sandbox", cursor: "ord_x" }), isCode("validation_error"));
    const counts = await admin.admin.inventory.counts({ environment: "sandbox" });
    assert.ok(counts.listed >= 2 && counts.removed >= 1);
  });

  it("imports 10,000 rows in one go", async () => {
    const tag = newTag();
    const csvText = `name,price_cents\n${Array.from({ length: IMPORT_MAX_ROWS }, (_, i) => `${tag}-bulk-${i}.net,${1_000 + i}`).join("\n")}\n`;
    const started = Date.now();
    const report = await importListings(getDb(), { environment: "sandbox", csvText, reason: "Bulk load" }, { type: "cli" });
    const ms = Date.now() - started;
    assert.equal(report.added, IMPORT_MAX_ROWS);
    const written = await getDb().select({ name: domains.name }).from(domains).where(inArray(domains.name, [`${tag}-bulk-0.net`, `${tag}-bulk-9999.net`]));
    assert.equal(written.length, 2);
    console.log(`10,000-row import: ${ms} ms`);
  });
});
