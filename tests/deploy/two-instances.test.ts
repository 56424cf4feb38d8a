import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import { createPool } from "@/db/client";
import { knownMigrations } from "@/db/migrate";
import { users } from "@/db/schema";
import { packageStandalone } from "@/server/cli/standalone";
import { resetEnv } from "@/server/env";
import { waitForHealth } from "@/server/cli/next-build";
import { recordEvent } from "@/server/services/events";
import { addDomain } from "@/server/services/inventory";
import { createCredential, createPartner, revokeCredential } from "@/server/services/partners";
import { saveWebhookEndpoint } from "@/server/services/webhooks";
import { signRequest, type PartnerCredentials } from "@/server/signing/client";
import { stopChildren } from "@/reliability/lib/processes";
import { startCountingReceiver } from "@/reliability/lib/receiver";
import { standaloneStage } from "../helpers/standalone-stage";

// The exact commands the Docker image runs (Dockerfile, compose.yaml), from the
// build the e2e stage made: `node migrate.mjs`, two `node web.mjs` and one
// `node worker.mjs` inside .next/standalone, on one fresh database. The web
// instances run as production (APP_ENV=production, one SECRET_KEY and one Server
// Actions key); the worker runs in development mode only because its webhook
// receiver is on loopback, which production refuses (WEBHOOK_ALLOW_PRIVATE_TARGETS).

const PORT = Number(process.env.DEPLOY_PORT ?? 3300);
const webUrls = [`http://127.0.0.1:${PORT}`, `http://127.0.0.1:${PORT + 1}`] as const;
const { admin, dbName, dbUrl, shared } = standaloneStage("deploy");
const pool = createPool(dbUrl, 2);
const children: ChildProcess[] = [];
let standalone = "";
const output: string[] = [];

/** Runs a file of the standalone folder; `from` starts it from another directory (`node /srv/app/web.mjs`). */
function command(file: string, env: Record<string, string | undefined>, { label = file, from }: { label?: string; from?: string } = {}): ChildProcess {
  const child = spawn(process.execPath, [path.join(standalone, file)], { cwd: from ?? standalone, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (chunk: Buffer) => output.push(`${label}: ${chunk}`));
  child.stderr!.on("data", (chunk: Buffer) => output.push(`${label} (stderr): ${chunk}`));
  return child;
}

function runToEnd(file: string, env: Record<string, string | undefined>): Promise<{ code: number | null; text: string }> {
  const child = command(file, env);
  let text = "";
  child.stdout!.on("data", (chunk: Buffer) => (text += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (text += chunk));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, text })));
}

const production = { ...shared, APP_ENV: "production", NODE_ENV: "production", APP_URL: webUrls[0], TRUST_PROXY_HOPS: "1" };

async function signedGet(base: string, credential: PartnerCredentials, url: string, nonce = randomUUID()) {
  const response = await fetch(`${base}${url}`, { headers: signRequest(credential, { method: "GET", url, nonce }) });
  return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
}

describe("the standalone build: migrate, two web instances, one worker, one database", () => {
  before(async () => {
    standalone = await packageStandalone();
    await admin.unsafe(`create database ${dbName}`);
    const first = await runToEnd("migrate.mjs", production);
    assert.equal(first.code, 0, first.text);
    assert.match(first.text, new RegExp(`migrate: applied ${knownMigrations().length} migration`));
    const second = await runToEnd("migrate.mjs", production);
    assert.equal(second.code, 0, second.text);
    assert.match(second.text, /migrate: the database is up to date/);

    // The second instance is started from another directory, as `node /srv/app/web.mjs` would be.
    const webs = webUrls.map((url, i) => command("web.mjs", { ...production, PORT: new URL(url).port }, { label: `web ${i}`, from: i === 1 ? os.tmpdir() : undefined }));
    children.push(...webs);
    children.push(command("worker.mjs", { ...shared, APP_ENV: "development", NODE_ENV: "production", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_SCHEDULE: "1s,2s" }));
    await Promise.all(webs.map((child, i) => waitForHealth(`${webUrls[i]}/api/health`, child, 60_000))).catch((error: Error) => {
      console.log(output.join("")); // why a command did not come up
      throw error;
    });
  });

  after(async () => {
    await stopChildren(children, "SIGTERM");
    await pool.sql.end({ timeout: 5 });
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
    if (process.env.DEPLOY_VERBOSE) console.log(output.join("")); // the processes' own output
  });

  it("both instances answer health, through the custom server (request ids on Next's own pages too)", async () => {
    for (const base of webUrls) {
      const health = await fetch(`${base}/api/health`);
      assert.equal(health.status, 200);
      const missing = await fetch(`${base}/no-such-page-${randomUUID()}`);
      assert.equal(missing.status, 404);
      assert.match(missing.headers.get("x-request-id") ?? "", /^req_/);
    }
    const page = await fetch(`${webUrls[1]}/`);
    assert.equal(page.status, 200);
    const css = /href="(\/_next\/static\/[^"]+\.css)"/.exec(await page.text());
    assert.ok(css, "the home page links its stylesheet");
    assert.equal((await fetch(`${webUrls[1]}${css[1]}`)).status, 200, "static files are served from the standalone folder");
  });

  it("search works from the standalone folder (WordNet and the encoder are packages Next cannot trace)", async () => {
    await addDomain(pool.db, { environment: "live", name: "quietcoffeeroasters.com", priceCents: 250_000 });
    const response = await fetch(`${webUrls[0]}/api/domain/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "espresso beans" }) });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { results: { domain: string }[] };
    assert.deepEqual(body.results.map((r) => r.domain), ["quietcoffeeroasters.com"]);
  });

  it("a signed request's nonce used on one instance is refused on the other; a revoked key is refused by both within a second", async () => {
    const partner = await createPartner(pool.db, { name: "Deploy test", email: `deploy-${randomUUID()}@test.example`, paymentModel: "mor", isAffiliate: false, liveApproved: true });
    const created = await createCredential(pool.db, { partnerId: partner.partnerId, environment: "sandbox", scopes: ["search"] });
    const credential = { keyId: created.keyId, secret: created.secret };
    const url = "/api/partner/v1/availability?domain=deploy-check.com";
    const nonce = randomUUID();
    assert.equal((await signedGet(webUrls[0], credential, url, nonce)).status, 200);
    const replay = await signedGet(webUrls[1], credential, url, nonce);
    assert.equal(replay.status, 401);
    assert.equal(replay.body.error?.code, "replay_detected");

    for (const base of webUrls) assert.equal((await signedGet(base, credential, url)).status, 200); // both cache the key now
    const t0 = Date.now();
    await revokeCredential(pool.db, { keyId: credential.keyId });
    for (const base of webUrls) {
      let status = 200;
      while (status !== 401 && Date.now() - t0 < 5_000) status = (await signedGet(base, credential, url)).status;
      assert.equal(status, 401, `${base} still accepts the revoked key`);
    }
    assert.ok(Date.now() - t0 < 1_000, `refused by both after ${Date.now() - t0} ms`);

    // Both instances' log lines name the route, the one started from elsewhere too (it reads its
    // routes from the folder it serves, not from the directory it was started in).
    await new Promise((resolve) => setTimeout(resolve, 200)); // the last lines' write
    for (const label of ["web 0", "web 1"]) {
      const lines = output.filter((chunk) => chunk.startsWith(`${label}: `)).join("");
      assert.match(lines, /"route":"\/api\/partner\/v1\/availability"/, `${label} logs the route class`);
    }
  });

  it("the worker delivers a webhook event once", async () => {
    const receiver = await startCountingReceiver();
    try {
      const partner = await createPartner(pool.db, { name: "Deploy hooks", email: `hooks-${randomUUID()}@test.example`, paymentModel: "mor", isAffiliate: false, liveApproved: true });
      const owner = { partnerId: partner.partnerId, environment: "sandbox" as const };
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true"; // the endpoint is saved by this process, on loopback
      resetEnv();
      await saveWebhookEndpoint(pool.db, { ...owner, url: receiver.url, secret: `deploy-${randomUUID()}` }, { type: "system" });
      const data = { order: { public_id: "ord_deploy", domain: "deploy-check.com", status: "EXTERNALLY_PAID", sale_price_cents: 1000, currency: "USD" } };
      const event = await recordEvent(pool.db, { ...owner, type: "order.recorded", data });
      const deadline = Date.now() + 20_000;
      while (!receiver.received.has(event.id) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // a duplicate would arrive by now
      assert.equal(receiver.received.get(event.id), 1);
    } finally {
      await receiver.close();
    }
  });

  it("a form rendered by one instance is posted to the other (Server Actions share the key)", async () => {
    const page = await (await fetch(`${webUrls[0]}/sign-up`)).text();
    const form = new FormData();
    for (const input of page.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
      const name = /name="([^"]*)"/.exec(input[0])?.[1];
      const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? "";
      if (name) form.append(unescapeHtml(name), unescapeHtml(value));
    }
    assert.ok([...form.keys()].some((k) => k.startsWith("$ACTION")), "the page carries a server action form");
    const email = `deploy-${randomUUID()}@test.example`;
    form.append("name", "Deploy Test");
    form.append("email", email);
    form.append("password", "correct horse battery");
    const posted = await fetch(`${webUrls[1]}/sign-up`, { method: "POST", body: form, redirect: "manual", headers: { origin: webUrls[1] } });
    assert.ok([200, 303].includes(posted.status), `status ${posted.status}`);
    const [user] = await pool.db.select().from(users).where(eq(users.email, email));
    assert.ok(user, "the action ran on the other instance and created the account");
  });

  it("each command refuses to start on a mistake, in one sentence: no shared key, a schema not this release's", async () => {
    const { NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: _key, ...keyless } = production;
    await admin.unsafe(`create database ${dbName}_empty`);
    const emptyUrl = Object.assign(new URL(dbUrl), { pathname: `/${dbName}_empty` }).href;
    const worker = { ...production, WEBHOOK_ALLOW_PRIVATE_TARGETS: undefined };
    const [web, pending] = await Promise.all([
      runToEnd("web.mjs", { ...keyless, PORT: String(PORT + 2) }),
      runToEnd("worker.mjs", { ...worker, DATABASE_URL: emptyUrl }),
    ]);
    await admin.unsafe(`drop database if exists ${dbName}_empty with (force)`);
    assert.deepEqual([web.code, pending.code], [1, 1]);
    assert.match(web.text, /^Invalid settings:\n {2}NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: required in production, the same on every web instance[^\n]*\n$/);
    const known = knownMigrations();
    assert.equal(pending.text, `worker: the database lacks ${known.length} migration(s) of this release (first: ${known[0]!.tag}); run npm run migrate first\n`);

    // A newer release migrated the database: this release's migrate and worker leave it alone.
    await pool.sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-release', ${known.at(-1)!.when + 60_000})`;
    const [migrate, stale] = await Promise.all([runToEnd("migrate.mjs", production), runToEnd("worker.mjs", worker)]);
    const newer = `the database holds 1 migration(s) newer than this release knows (its latest is ${known.at(-1)!.tag}); run the release that migrated it, or a newer one`;
    assert.deepEqual([migrate.code, stale.code], [1, 1]);
    assert.equal(migrate.text, `migrate: ${newer}\n`);
    assert.equal(stale.text, `worker: ${newer}\n`);
  });
});

function unescapeHtml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}
