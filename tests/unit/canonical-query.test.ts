import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { canonicalQuery, canonicalString, encodeRfc3986, EMPTY_BODY_SHA256, signCanonical } from "@/server/signing/canonical";
import { signRequest } from "@/server/signing/client";

// The canonical query of SPEC "Authentication": sorted by key then value,
// encodeURIComponent plus !'()* escapes. Client and server share the module,
// so these properties pin the rules themselves and the round trip through a URL.

const awkward = fc.constantFrom("", " ", "!", "'", "(", ")", "*", "+", "&", "=", "%", "/", "?", "#", "~", "é", "日本", "😀", "a b", "%zz");
const text = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), awkward, fc.string({ unit: fc.constantFrom("a", "b", "!", " ", "*", "é") }));
const pairs = fc.array(fc.tuple(text, text), { maxLength: 8 });

/** How a correct client writes a query string from pairs (any order, any encoding of its choice). */
function buildSearch(list: [string, string][]): string {
  return list.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
}

const sortedEncoded = (list: [string, string][]) =>
  [...list]
    .sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0))
    .map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(v)}`)
    .join("&");

describe("canonical query", () => {
  it("examples", () => {
    assert.equal(canonicalQuery(""), "");
    assert.equal(canonicalQuery("?"), "");
    assert.equal(canonicalQuery("b=2&a=1"), "a=1&b=2");
    assert.equal(canonicalQuery("a=2&a=1&a=10"), "a=1&a=10&a=2");
    assert.equal(canonicalQuery("q=hello world"), "q=hello%20world");
    assert.equal(canonicalQuery("q=a+b"), "q=a%20b");
    assert.equal(canonicalQuery("q=a%2Bb"), "q=a%2Bb");
    assert.equal(canonicalQuery("q=!'()*"), "q=%21%27%28%29%2A");
    assert.equal(canonicalQuery("q=%c3%a9"), "q=%C3%A9");
    assert.equal(canonicalQuery("empty=&flag"), "empty=&flag=");
    assert.equal(canonicalQuery("?domain=x.com"), "domain=x.com");
    assert.equal(canonicalQuery("q=~-_.AZaz09"), "q=~-_.AZaz09");
  });

  it("is independent of the order pairs are sent in", () => {
    fc.assert(
      fc.property(pairs, fc.func(fc.integer()), (list, rank) => {
        const shuffled = [...list].sort((a, b) => rank(a) - rank(b));
        assert.equal(canonicalQuery(buildSearch(shuffled)), canonicalQuery(buildSearch(list)));
      }),
    );
  });

  it("decodes what the client encoded and re-encodes by the spec's rules", () => {
    fc.assert(
      fc.property(pairs, (list) => {
        // Lone surrogates cannot travel in a URL; a correct client never sends them.
        fc.pre(list.every(([k, v]) => k.isWellFormed() && v.isWellFormed()));
        assert.equal(canonicalQuery(buildSearch(list)), sortedEncoded(list));
      }),
    );
  });

  it("contains only unreserved characters and uppercase escapes", () => {
    fc.assert(
      fc.property(pairs, (list) => {
        fc.pre(list.every(([k, v]) => k.isWellFormed() && v.isWellFormed()));
        const out = canonicalQuery(buildSearch(list));
        assert.match(out, /^[A-Za-z0-9\-_.~%=&]*$/);
        assert.doesNotMatch(out, /%[0-9A-F]?[a-f]/);
      }),
    );
  });

  it("gives the same answer whether the client used + or %20 for spaces", () => {
    fc.assert(
      fc.property(pairs, (list) => {
        fc.pre(list.every(([k, v]) => k.isWellFormed() && v.isWellFormed()));
        const plus = new URLSearchParams(list).toString(); // form encoding, spaces as +
        assert.equal(canonicalQuery(plus), canonicalQuery(buildSearch(list)));
      }),
    );
  });

  it("client signature verifies against the server's rebuild of the same URL", () => {
    fc.assert(
      fc.property(pairs, fc.constantFrom("GET", "POST", "PUT"), fc.string(), (list, method, body) => {
        fc.pre(list.every(([k, v]) => k.isWellFormed() && v.isWellFormed()));
        const credentials = { keyId: "pk_sandbox_AAAAAAAAAAAAAAAAAAAAAAAA", secret: "sk_sandbox_secret" };
        const search = buildSearch(list);
        const url = `/api/partner/v1/domains/search${search ? `?${search}` : ""}`;
        const sendsBody = method !== "GET";
        const headers = signRequest(credentials, { method, url, body: sendsBody ? body : undefined, timestamp: 1_800_000_000, nonce: "n-1" });
        // The server side: parse the URL as a request arrives, rebuild, compare.
        const received = new URL(`http://localhost:3000${url}`);
        const expected = signCanonical(
          credentials.secret,
          canonicalString({
            method,
            path: received.pathname,
            query: received.search,
            timestamp: "1800000000",
            nonce: "n-1",
            bodySha256: sendsBody ? sha(body) : EMPTY_BODY_SHA256,
          }),
        );
        assert.equal(headers["X-Service-Signature"], expected);
      }),
    );
  });
});

describe("canonical string", () => {
  it("is six lines in the spec's order with the empty-body hash for GET", () => {
    const canonical = canonicalString({
      method: "get",
      path: "/api/partner/v1/availability",
      query: "?domain=example.com",
      timestamp: "1700000000",
      nonce: "abc",
      bodySha256: EMPTY_BODY_SHA256,
    });
    assert.equal(
      canonical,
      "GET\n/api/partner/v1/availability\ndomain=example.com\n1700000000\nabc\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    // Known-answer test, computed independently with `openssl dgst -sha256 -hmac`.
    assert.equal(signCanonical("sk_sandbox_test", canonical), `v1=${KNOWN_SIGNATURE}`);
  });
});

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const KNOWN_SIGNATURE = "e0f69933c70c9452b1c8135f6776f400ddb94fed9b4f0aa797d2937ee6c185a4";
