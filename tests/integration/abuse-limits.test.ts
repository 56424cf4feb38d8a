import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { count, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { referralClicks, users } from "@/db/schema";
import * as publicSearch from "@/app/api/domain/search/route";
import * as redirectRoute from "@/app/r/[code]/route";
import { authenticateUser, SIGN_IN_LIMITS, signInRetryMessage } from "@/server/auth/credentials";
import { hashPassword, passwordNeedsRehash, verifyPassword } from "@/server/crypto";
import { abuseLimits, takeBuyNow, takePayAttempt, takeStorefrontSearch } from "@/server/http/abuse-limits";
import { tagClientIp } from "@/server/http/client-ip";
import { registerClient } from "@/server/oauth/clients";
import { tokenHandler, TOKEN_REQUESTS_PER_MINUTE } from "@/server/oauth/http";
import { ANONYMOUS_LIMIT_PER_MIN, PUBLIC_RATE_PERIOD_MS } from "@/server/public/rate-limit";
import { createLink } from "@/server/services/referrals";
import { createUser } from "@/server/services/partners";
import { createTestPartner, uniqueSuffix } from "../helpers/partner";
import { refillsSince } from "@/reliability/lib/gcra";
import { randomIp } from "../helpers/public";

// Per-address limits hold however the caller dresses its requests, and the
// pages without a key (sign-in, OAuth token, pay, buy now, storefront search,
// referral clicks) each have one.

/** A tiny stand-in for scripts/serve.ts: the same tagging, then the real route handler. */
function serve(hops: number): Promise<Server> {
  const server = createServer((req, res) => {
    tagClientIp(req, hops);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(key, value);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const response = await publicSearch.POST(new Request(`http://localhost${req.url}`, { method: "POST", headers, body: Buffer.concat(chunks) }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function searchOver(server: Server, forwardedFor: string): Promise<number> {
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/api/domain/search`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor, "x-client-ip": forwardedFor },
    body: JSON.stringify({ query: "zzqq", limit: 1 }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe("abuse limits", () => {
  after(closeDb);

  it("rotating X-Forwarded-For (and a forged x-client-ip) no longer escapes the public search's per-IP limit", async () => {
    // Loopback is shared with other suites' callers, so start from an empty bucket on a fresh port of time: count only refusals.
    const server = await serve(0);
    try {
      const statuses: number[] = [];
      const started = performance.now();
      for (let i = 0; i < 40; i++) statuses.push(await searchOver(server, randomIp()));
      // At most the limit gets through, plus one per refill (a GCRA: 60 s / limit) while the 40 ran: a slow machine may take seconds.
      const refills = refillsSince(started, ANONYMOUS_LIMIT_PER_MIN, PUBLIC_RATE_PERIOD_MS);
      const refused = statuses.filter((s) => s === 429).length;
      assert.ok(refused >= 40 - ANONYMOUS_LIMIT_PER_MIN - refills, `statuses (${refills} refills): ${statuses.join(",")}`);
    } finally {
      server.close();
    }
  });

  it("with TRUST_PROXY_HOPS=1 the proxy's X-Forwarded-For entry is the client", async () => {
    const server = await serve(1);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 35; i++) statuses.push(await searchOver(server, `203.0.113.9, ${randomIp()}`));
      assert.ok(statuses.every((s) => s === 200), `statuses: ${statuses.join(",")}`);
    } finally {
      server.close();
    }
  });

  describe("sign-in", () => {
    let email: string;
    before(async () => {
      email = `limit-${uniqueSuffix()}@test.example`;
      await createUser(getDb(), { email, password: "correct-horse", role: "customer" });
    });

    it("is limited per account, whatever the address, with a clear retry message and no password check", async () => {
      const db = getDb();
      for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
        const result = await authenticateUser(db, { email, password: "wrong" }, randomIp());
        assert.equal(result.ok ? "ok" : result.reason, "invalid_credentials");
      }
      const limited = await authenticateUser(db, { email, password: "correct-horse" }, randomIp());
      assert.equal(limited.ok, false);
      assert.equal(!limited.ok && limited.reason, "rate_limited");
      if (!limited.ok && limited.reason === "rate_limited") assert.match(signInRetryMessage(limited.retryAfterSeconds), /^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
    });

    it("is limited per address across accounts", async () => {
      const db = getDb();
      const ip = randomIp();
      const { perIp, periodMs } = SIGN_IN_LIMITS;
      const attempt = () => authenticateUser(db, { email: `nobody-${uniqueSuffix()}@test.example`, password: "x" }, ip);
      const started = performance.now();
      const results = await Promise.all(Array.from({ length: perIp }, attempt));
      for (const result of results) assert.equal(!result.ok && result.reason, "invalid_credentials");
      // Until the first refusal: none more, plus one per refill (15 min / 30 = 30 s) while the
      // 30 password checks ran, which a loaded machine can stretch past 30 s.
      let limited = await attempt();
      let extra = 0;
      while (!limited.ok && limited.reason === "invalid_credentials" && extra <= perIp) {
        extra += 1;
        limited = await attempt();
      }
      const refills = refillsSince(started, perIp, periodMs);
      assert.equal(!limited.ok && limited.reason, "rate_limited");
      assert.ok(extra <= refills, `${extra} more got through after ${refills} refill(s)`);
    });
  });

  it("the OAuth token endpoint answers 429 in RFC 6749 shape with Retry-After per client", async () => {
    const client = await registerClient(getDb(), { redirect_uris: ["http://127.0.0.1/cb"], client_name: "limit test" });
    const statuses: number[] = [];
    let last: Response | undefined;
    const { perClient } = TOKEN_REQUESTS_PER_MINUTE;
    const started = performance.now();
    // Until the first refusal: the limit's worth, plus one per refill (60 s / limit) while they ran on a slow machine.
    for (let i = 0; i < perClient + 10 && last?.status !== 429; i++) {
      last = await tokenHandler(
        new Request("http://localhost:3000/api/oauth/token", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-client-ip": randomIp() },
          body: new URLSearchParams({ grant_type: "authorization_code", client_id: client.client_id, code: "nope", redirect_uri: "http://127.0.0.1/cb", code_verifier: "x".repeat(43) }),
        }),
      );
      statuses.push(last.status);
    }
    const refills = refillsSince(started, perClient);
    const accepted = statuses.filter((s) => s !== 429).length;
    assert.ok(accepted >= perClient && accepted <= perClient + refills, `${refills} refills: ${statuses.join(",")}`);
    assert.equal(last?.status, 429);
    assert.ok(Number(last?.headers.get("retry-after")) >= 1);
    const body = (await last!.json()) as { error: string; error_description: string };
    assert.equal(body.error, "invalid_request");
    assert.match(body.error_description, /Too many token requests/);
  });

  it("pay is limited per checkout session and per address", async () => {
    const db = getDb();
    const token = `pt-${uniqueSuffix()}`;
    for (let i = 0; i < abuseLimits.pay.perSession.limit; i++) assert.equal((await takePayAttempt(db, token, randomIp())).allowed, true);
    assert.equal((await takePayAttempt(db, token, randomIp())).allowed, false);
    const ip = randomIp();
    for (let i = 0; i < abuseLimits.pay.perIp.limit; i++) assert.equal((await takePayAttempt(db, `pt-${uniqueSuffix()}`, ip)).allowed, true);
    const refused = await takePayAttempt(db, `pt-${uniqueSuffix()}`, ip);
    assert.equal(refused.allowed, false);
    assert.ok(refused.retryAfterSeconds > 0);
  });

  it("buy now and the storefront search are limited per address", async () => {
    const db = getDb();
    const ip = randomIp();
    for (let i = 0; i < abuseLimits.buyNow.perIp.limit; i++) assert.equal((await takeBuyNow(db, ip)).allowed, true);
    assert.equal((await takeBuyNow(db, ip)).allowed, false);
    for (let i = 0; i < abuseLimits.storefrontSearch.perIp.limit; i++) assert.equal((await takeStorefrontSearch(db, ip)).allowed, true);
    assert.equal((await takeStorefrontSearch(db, ip)).allowed, false);
  });

  it("a click flood from one address is redirected but not counted", async () => {
    const db = getDb();
    const { partnerId } = await createTestPartner({ isAffiliate: true });
    const link = await createLink(db, { partnerId, environment: "sandbox", type: "generic" });
    const ip = randomIp();
    for (let i = 0; i < abuseLimits.referralClick.perIpPerLink.limit + 5; i++) {
      const response = await redirectRoute.GET(new Request(`http://localhost:3000/r/${link.code}`, { headers: { "x-client-ip": ip, "user-agent": "Mozilla/5.0 Chrome/120" } }), {
        params: Promise.resolve({ code: link.code }),
      });
      assert.equal(response.status, 302);
    }
    const [row] = await db.select({ n: count() }).from(referralClicks).where(eq(referralClicks.linkId, link.id));
    assert.equal(row?.n, abuseLimits.referralClick.perIpPerLink.limit);
  });

  describe("passwords", () => {
    it("new hashes carry their scrypt parameters (N >= 2^17) and verify", async () => {
      const hash = await hashPassword("s3cret pass");
      assert.match(hash, /^scrypt\$N=131072,r=8,p=1\$[\w-]+\$[\w-]+$/);
      assert.equal(await verifyPassword("s3cret pass", hash), true);
      assert.equal(await verifyPassword("wrong", hash), false);
      assert.equal(passwordNeedsRehash(hash), false);
    });

    it("a tampered or unknown hash never verifies", async () => {
      const hash = await hashPassword("pw");
      assert.equal(await verifyPassword("pw", hash.replace("N=131072", "N=1048577")), false);
      assert.equal(await verifyPassword("pw", hash.replace("N=131072", "N=999")), false);
      assert.equal(await verifyPassword("pw", "!no-password"), false);
    });

    it("an old-format hash verifies and is upgraded at the next sign-in", async () => {
      const { scryptSync, randomBytes } = await import("node:crypto");
      const salt = randomBytes(16);
      const legacy = `scrypt.${salt.toString("base64url")}.${scryptSync("legacy-pw", salt, 32).toString("base64url")}`;
      assert.equal(passwordNeedsRehash(legacy), true);
      const email = `legacy-${uniqueSuffix()}@test.example`;
      const db = getDb();
      const { userId } = await createUser(db, { email, password: "temporary", role: "customer" });
      await db.update(users).set({ passwordHash: legacy }).where(eq(users.id, userId));
      const result = await authenticateUser(db, { email, password: "legacy-pw" }, randomIp());
      assert.equal(result.ok, true);
      const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
      assert.match(row!.hash, /^scrypt\$N=131072/);
      assert.equal(await verifyPassword("legacy-pw", row!.hash), true);
    });
  });
});
