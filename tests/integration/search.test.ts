import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { domainTerms, domains, searchVocabulary } from "@/db/schema";
import { newId } from "@/server/ids";
import { searchDomains } from "@/server/services/discovery";
import { addDomain, removeDomain, setDomainPrice } from "@/server/services/inventory";
import { getEmbedder, setEmbedder, USE_LITE_MODEL, type Embedder } from "@/server/search/embedder";
import { analyzeWords } from "@/server/search/analyze";
import { getVocabulary } from "@/server/search/vocabulary";
import { createTestPartner } from "../helpers/partner";
import { opaqueTag } from "../helpers/tags";

// The hybrid engine against the real database: ingest segmentation and the
// vocabulary, each leg reaching its kind of query, and inventory changes
// (add, reprice, remove, sold) visible to the very next search. Every name
// carries a random letters-only tag so reruns and other suites never collide.

const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join("");
const tag = opaqueTag("zx");
let partnerId: string;
let original: Embedder;

const search = async (q: string, limit = 5) =>
  (await searchDomains(getDb(), { environment: "sandbox", partnerId, q, limit })).hits;
const names = async (q: string) => (await search(q)).map((h) => h.name);

describe("hybrid search", () => {
  before(async () => {
    original = getEmbedder();
    partnerId = (await createTestPartner({ scopes: ["search"] })).partnerId;
    const add = (name: string, priceCents: number) => addDomain(getDb(), { environment: "sandbox", name, priceCents });
    await add(`${tag}bestpizzashop.com`, 50_000);
    await add(`${tag}lawyer.com`, 90_000);
    await add(`${tag}lawyer.io`, 40_000);
    await add(`${tag}lawyer.net`, 30_000);
    await add(`${tag}lawyer.org`, 20_000);
    await add(`${tag}-kitchen.shop`, 10_000);
  });

  after(async () => {
    await closeDb();
  });

  it("lists a domain even when the encoder is down; the word is embedded by a later ingest", async () => {
    const word = `${tag}q`;
    setEmbedder({ model: USE_LITE_MODEL, embed: () => Promise.reject(new Error("encoder unavailable")) });
    try {
      const row = await addDomain(getDb(), { environment: "sandbox", name: `${word}-encoder-down.com`, priceCents: 12_300 });
      assert.equal(row.status, "listed");
    } finally {
      setEmbedder(original);
    }
    assert.ok((await names(word)).includes(`${word}-encoder-down.com`), "keyword legs find it at once");
    await addDomain(getDb(), { environment: "sandbox", name: `${word}-encoder-up.com`, priceCents: 12_300 });
    const embedded = await getDb().select().from(searchVocabulary).where(eq(searchVocabulary.word, word));
    assert.equal(embedded.length, 1);
  });

  it("segments labels at ingest and embeds each new word once", async () => {
    const [row] = await getDb().select().from(domains).where(eq(domains.name, `${tag}bestpizzashop.com`));
    assert.equal(row?.tokens, `${tag} best pizza shop`);
    const vocabulary = await getDb().select().from(searchVocabulary).where(eq(searchVocabulary.word, "pizza"));
    assert.equal(vocabulary.length, 1);
    assert.equal(vocabulary[0]?.vector.length, 512 * 4, "a float4 vector of USE lite");
  });

  it("finds a run-together query through segmentation", async () => {
    assert.equal((await names(`${tag} bestpizza`))[0], `${tag}bestpizzashop.com`);
  });

  it("corrects a misspelt word against the vocabulary", async () => {
    assert.equal((await names(`${tag} kitchn`))[0], `${tag}-kitchen.shop`);
  });

  it("finds a long multi-word label typed with one slip first, above names holding its pieces", async () => {
    for (const name of ["homeneedscholarship.com", "-home-ship.com", "-need-home.com", "-so-home.com", "usegown.com", "-use-gone.com", "gone-use.com"]) {
      await addDomain(getDb(), { environment: "sandbox", name: `${tag}${name}`, priceCents: 5_000 });
    }
    // Segmentation cuts the slip into real-looking words ("so cho lar ship", "use gon"), so the
    // query looked explained and the label leg was skipped; the pieces matched other names.
    for (const [q, name] of [[`${tag} homeneedsocholarship`, "homeneedscholarship.com"], [`${tag} usegon.com`, "usegown.com"]] as const) {
      const found = await names(q);
      assert.equal(found[0], `${tag}${name}`, `${q}: ${found.join(", ")}`);
    }
  });

  it("finds the listed name one edit from a full name typed, even when its words are listed", async () => {
    for (const name of ["-law.com", "-lao-tea.com"]) await addDomain(getDb(), { environment: "sandbox", name: `${tag}${name}`, priceCents: 5_000 });
    // Every word of "<tag>-lao.com" is listed, so the query looked explained and the label leg did not run.
    const found = await names(`${tag}-lao.com`);
    assert.equal(found[0], `${tag}-law.com`, found.join(", "));
    assert.ok(found.includes(`${tag}-lao-tea.com`), "the names holding the words typed follow");
  });

  it("matches the longer words a query word starts", async () => {
    await addDomain(getDb(), { environment: "sandbox", name: `${tag}-gardening.com`, priceCents: 5_000 });
    assert.ok((await names(`${tag} garden`)).includes(`${tag}-gardening.com`));
  });

  it("counts a longer word a query word starts only when it means something like it (eco: ecologist, not economy)", async () => {
    // eco-shop lists "eco", so the word has a meaning to compare with; economy is the shorter label, first on a tie.
    for (const word of ["eco-shop", "economy", "ecologist"]) await addDomain(getDb(), { environment: "sandbox", name: `${tag}-${word}.com`, priceCents: 5_000 });
    const found = await names(`${tag} eco`);
    const [ecologist, economy] = [found.indexOf(`${tag}-ecologist.com`), found.indexOf(`${tag}-economy.com`)];
    assert.ok(ecologist >= 0 && (economy === -1 || economy > ecologist), found.join(", "));
    const [eco] = await analyzeWords(await getVocabulary(getDb()), ["eco"]);
    assert.deepEqual([eco?.prefixOf?.("ecologist"), eco?.prefixOf?.("economy"), eco?.prefixed.includes("economy")], [true, false, false]);
  });

  it("weighs the word that carries the subject above its modifier (family doctor: doctor, not family)", async () => {
    // Neither name holds both words; which one answers better is the encoder's call, not the words' order
    // ("tattoo parlor" has its subject first).
    for (const word of ["family", "doctor"]) await addDomain(getDb(), { environment: "sandbox", name: `${tag}-${word}.com`, priceCents: 5_000 });
    const found = await names(`${tag} family doctor`);
    const [doctor, family] = [found.indexOf(`${tag}-doctor.com`), found.indexOf(`${tag}-family.com`)];
    assert.ok(doctor >= 0 && (family === -1 || family > doctor), found.join(", "));
    const concepts = await analyzeWords(await getVocabulary(getDb()), ["family", "doctor"], undefined, { subject: true });
    const centrality = Object.fromEntries(concepts.map((c) => [c.word, c.centrality]));
    assert.equal(centrality.doctor, 1);
    assert.ok((centrality.family ?? 1) < 0.9, JSON.stringify(centrality));
    const tattoo = await analyzeWords(await getVocabulary(getDb()), ["tattoo", "parlor"], undefined, { subject: true });
    assert.deepEqual(tattoo.map((c) => c.word === "tattoo" ? c.centrality : (c.centrality ?? 1) < 0.9), [1, true]);
  });

  it("puts a name holding the typed filler words above the same name without them", async () => {
    await addDomain(getDb(), { environment: "sandbox", name: `${tag}thejustice.com`, priceCents: 5_000 });
    await addDomain(getDb(), { environment: "sandbox", name: `${tag}justice.com`, priceCents: 5_000 });
    assert.equal((await names(`${tag} the justice`))[0], `${tag}thejustice.com`);
    assert.equal((await names(`${tag} justice`))[0], `${tag}justice.com`);
  });

  it("finds names by meaning", async () => {
    const found = await names(`${tag} attorney`);
    assert.ok(found.some((n) => n.startsWith(`${tag}lawyer.`)), found.join(", "));
  });

  it("reads a trade word or abbreviation the encoder does not know through its plain meaning", async () => {
    for (const word of ["heating", "havana", "vacancy"]) await addDomain(getDb(), { environment: "sandbox", name: `${tag}-${word}.com`, priceCents: 5_000 });
    const found = await names(`${tag} hvac`);
    assert.equal(found[0], `${tag}-heating.com`, found.join(", "));
  });

  it("understands a paraphrased intent: framing words not required, an agent noun and an inflection reach the listed words", async () => {
    await addDomain(getDb(), { environment: "sandbox", name: `${tag}-dog-groom.com`, priceCents: 5_000 });
    await addDomain(getDb(), { environment: "sandbox", name: `${tag}-dog-books.com`, priceCents: 5_000 });
    await addDomain(getDb(), { environment: "sandbox", name: `${tag}-somewhere.com`, priceCents: 5_000 });
    await addDomain(getDb(), { environment: "sandbox", name: `${tag}-plumb.com`, priceCents: 5_000 });
    const groomer = await names(`${tag} somewhere to book a dog groomer`);
    assert.equal(groomer[0], `${tag}-dog-groom.com`, groomer.join(", "));
    const plumbing = await names(`${tag} need a site for a plumbing business`);
    assert.equal(plumbing[0], `${tag}-plumb.com`, plumbing.join(", "));
  });

  it("never returns more than two TLD variants of one label, and prefers a typed TLD", async () => {
    const found = await names(`${tag}lawyer`);
    assert.ok(found.filter((n) => n.startsWith(`${tag}lawyer.`)).length <= 2, found.join(", "));
    assert.equal((await names(`${tag}lawyer .org`))[0], `${tag}lawyer.org`);
  });

  it("fits a budget typed in the query", async () => {
    const found = await names(`${tag}lawyer under $350`);
    assert.ok([`${tag}lawyer.net`, `${tag}lawyer.org`].includes(found[0] ?? ""), found.join(", "));
  });

  it("returns nothing rather than padding with noise", async () => {
    assert.deepEqual(await names(`qxjz${letters(3)} vbkwq${letters(4)}`), []);
    assert.deepEqual(await names(`zzqv${letters(6)}`), []);
  });

  it("shows add, reprice, remove and sold at once", async () => {
    const name = `${tag}solarpanel.com`;
    const q = `${tag}solar panel`;
    assert.ok(!(await names(q)).includes(name));
    await addDomain(getDb(), { environment: "sandbox", name, priceCents: 70_000 });
    assert.equal((await search(q))[0]?.name, name, "added");
    assert.equal((await search(q))[0]?.priceCents, 70_000);
    await setDomainPrice(getDb(), { environment: "sandbox", name, priceCents: 65_000 });
    assert.equal((await search(q))[0]?.priceCents, 65_000, "repriced");
    await removeDomain(getDb(), { environment: "sandbox", name });
    assert.ok(!(await names(q)).includes(name), "removed");
    await addDomain(getDb(), { environment: "sandbox", name, priceCents: 60_000 });
    assert.equal((await names(q))[0], name, "listed again");
    await getDb().update(domains).set({ status: "sold" }).where(eq(domains.name, name));
    assert.ok(!(await names(q)).includes(name), "sold");
  });

  it("keeps the postings in step with the listing: bulk insert, new words, status, delete, rollback", async () => {
    const [a, b] = [`${tag}greenroof.com`, `${tag}greenroof.io`];
    const postings = async (name: string) =>
      (await getDb().select({ term: domainTerms.term }).from(domainTerms).where(and(eq(domainTerms.environment, "sandbox"), eq(domainTerms.name, name))))
        .map((r) => r.term)
        .sort();
    const row = (name: string) => ({ id: newId("domain"), environment: "sandbox" as const, name, label: name.split(".")[0] as string, tld: name.split(".")[1] as string, priceCents: 1_000, tokens: `${tag} green roof` });
    await getDb().insert(domains).values([row(a), row(b)]);
    assert.deepEqual(await postings(a), [tag, "green", "roof"].sort(), "one statement, both rows");
    assert.deepEqual(await postings(b), [tag, "green", "roof"].sort());
    await getDb().update(domains).set({ tokens: `${tag} green roofs` }).where(eq(domains.name, a));
    assert.deepEqual(await postings(a), [tag, "green", "roofs"].sort(), "new words");
    await getDb().update(domains).set({ status: "reserved" }).where(eq(domains.name, a));
    assert.deepEqual(await postings(a), [], "reserved: not searchable");
    await getDb().update(domains).set({ status: "listed" }).where(eq(domains.name, a));
    assert.equal((await postings(a)).length, 3, "listed again");
    await getDb()
      .transaction(async (tx) => {
        await tx.update(domains).set({ status: "sold" }).where(eq(domains.name, a));
        throw new Error("rolled back");
      })
      .catch(() => {});
    assert.equal((await postings(a)).length, 3, "a rolled-back sale changes nothing");
    await getDb().delete(domains).where(eq(domains.name, a));
    assert.deepEqual(await postings(a), [], "deleted");
    assert.equal((await postings(b)).length, 3, "the other row keeps its postings");
  });
});
