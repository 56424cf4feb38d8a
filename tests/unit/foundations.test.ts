import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

process.env.SECRET_KEY ??= "unit-test-secret-key-unit-test-secret-key";
const { loadEnv, parseDuration, EnvError } = await import("@/server/env");
const { openSecret, sealSecret, hashPassword, verifyPassword, safeEqual } = await import("@/server/crypto");
const { encodeId, newId, randomBase62 } = await import("@/server/ids");
const { normalizeDomainName, tokenizeLabel } = await import("@/server/services/inventory");
const { AppError } = await import("@/server/errors");

describe("settings", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pdm-env-"));

  it("applies the documented defaults", () => {
    const env = loadEnv({ DATA_DIR: dataDir });
    assert.equal(env.PORT, 3000);
    assert.equal(env.APP_URL, "http://localhost:3000");
    assert.equal(env.MCP_URL, env.APP_URL);
    assert.deepEqual(env.WEBHOOK_RETRY_SCHEDULE, [10_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000]);
    assert.equal(env.WEBHOOK_ALLOW_PRIVATE_TARGETS, false);
    assert.equal(env.SEED_DEMO, true);
    assert.ok(env.SECRET_KEY.length >= 32, "a key is generated into DATA_DIR");
    assert.equal(loadEnv({ DATA_DIR: dataDir }).SECRET_KEY, env.SECRET_KEY, "and reused by the next process");
  });

  it("derives APP_URL from PORT and strips trailing slashes", () => {
    assert.equal(loadEnv({ DATA_DIR: dataDir, PORT: "4000" }).APP_URL, "http://localhost:4000");
    assert.equal(loadEnv({ DATA_DIR: dataDir, APP_URL: "https://shop.example/" }).APP_URL, "https://shop.example");
  });

  it("names every bad setting in one clear error", () => {
    assert.throws(
      () => loadEnv({ DATA_DIR: dataDir, PORT: "eighty", DATABASE_URL: "mysql://x", WEBHOOK_RETRY_SCHEDULE: "soon", SEED_DEMO: "maybe" }),
      (error: Error) =>
        error instanceof EnvError &&
        ["PORT", "DATABASE_URL", "WEBHOOK_RETRY_SCHEDULE", "SEED_DEMO"].every((name) => error.message.includes(name)),
    );
  });

  it("requires SECRET_KEY in production", () => {
    assert.throws(() => loadEnv({ DATA_DIR: dataDir, NODE_ENV: "production" }), /SECRET_KEY/);
    assert.throws(() => loadEnv({ DATA_DIR: dataDir, SECRET_KEY: "short" }), /SECRET_KEY/);
  });

  it("parses retry schedules", () => {
    assert.deepEqual(loadEnv({ DATA_DIR: dataDir, WEBHOOK_RETRY_SCHEDULE: "1s, 2s,500ms" }).WEBHOOK_RETRY_SCHEDULE, [1000, 2000, 500]);
    assert.equal(parseDuration("2h"), 7_200_000);
  });
});

describe("secrets at rest", () => {
  it("seals with AES-256-GCM bound to its context", () => {
    const sealed = sealSecret("sk_sandbox_abc", "pk_sandbox_1");
    assert.ok(!sealed.includes("sk_sandbox_abc"));
    assert.notEqual(sealSecret("sk_sandbox_abc", "pk_sandbox_1"), sealed, "fresh IV every time");
    assert.equal(openSecret(sealed, "pk_sandbox_1"), "sk_sandbox_abc");
    assert.throws(() => openSecret(sealed, "pk_sandbox_2"), "moved to another row it does not open");
    const [v, iv, ct, tag] = sealed.split(".");
    const first = ct?.[0] === "A" ? "B" : "A";
    const flipped = `${v}.${iv}.${first}${ct?.slice(1)}.${tag}`;
    assert.throws(() => openSecret(flipped, "pk_sandbox_1"), "tampering is detected");
  });

  it("hashes passwords with a salt and verifies them", async () => {
    const stored = await hashPassword("correct horse");
    assert.notEqual(stored, await hashPassword("correct horse"));
    assert.equal(await verifyPassword("correct horse", stored), true);
    assert.equal(await verifyPassword("wrong horse", stored), false);
    assert.equal(await verifyPassword("x", "garbage"), false);
  });

  it("compares in constant time without throwing on length mismatch", () => {
    assert.equal(safeEqual("abc", "abc"), true);
    assert.equal(safeEqual("abc", "abd"), false);
    assert.equal(safeEqual("abc", "abcd"), false);
  });
});

describe("ids", () => {
  it("carry their prefix and sort by creation time", () => {
    const earlier = newId("order", 1_700_000_000_000);
    const later = newId("order", 1_700_000_000_001);
    assert.match(earlier, /^ord_[0-9A-Za-z]{22}$/);
    assert.ok(earlier < later);
    assert.notEqual(newId("order"), newId("order"));
    assert.match(randomBase62(24), /^[0-9A-Za-z]{24}$/);
    const many = new Set(Array.from({ length: 5_000 }, () => newId("event", 1_700_000_000_000)));
    assert.equal(many.size, 5_000, "the random pool is refilled, never reused");
  });

  it("encode the 128-bit value (milliseconds << 80 | 80 random bits) in base62 exactly", () => {
    const reference = (nowMs: number, bytes: Buffer) => {
      let value = (BigInt(nowMs) << 80n) | BigInt(`0x${bytes.toString("hex")}`);
      let digits = "";
      for (let i = 0; i < 22; i++) {
        digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[Number(value % 62n)] + digits;
        value /= 62n;
      }
      return digits;
    };
    const cases: [number, Buffer][] = [
      [0, Buffer.alloc(10)],
      [2 ** 48 - 1, Buffer.alloc(10, 0xff)],
      [1_700_000_000_000, Buffer.from("00010203040506070809", "hex")],
    ];
    for (let i = 0; i < 2_000; i++) cases.push([Math.floor(Math.random() * 2 ** 48), randomBytes(10)]);
    for (const [nowMs, bytes] of cases) assert.equal(encodeId(nowMs, Buffer.concat([Buffer.alloc(3), bytes]), 3), reference(nowMs, bytes));
  });
});

describe("domain names", () => {
  it("normalises case, trailing dots and unicode to punycode", () => {
    assert.equal(normalizeDomainName(" Example.COM. "), "example.com");
    assert.equal(normalizeDomainName("bücher.de"), "xn--bcher-kva.de");
  });

  it("rejects what is not a domain name with validation_error", () => {
    for (const bad of ["", "localhost", "-bad.com", "bad-.com", "a..com", "x.123", "spaces in.com", `${"a".repeat(64)}.com`]) {
      assert.throws(
        () => normalizeDomainName(bad),
        (error: unknown) => error instanceof AppError && error.code === "validation_error",
        bad,
      );
    }
  });

  it("splits labels into search words", () => {
    assert.equal(tokenizeLabel("best-pizza24"), "best pizza 24");
    assert.equal(tokenizeLabel("web3dev"), "web 3 dev");
  });
});
