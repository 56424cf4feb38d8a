import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classifyAddress, findBlockedAddress, guardedLookup, isPublicAddress } from "@/server/webhooks/ssrf";

// The address classifier behind webhook SSRF protection: every special-purpose
// range is refused, ordinary unicast is public, and the edges of each range fall
// on the right side.

const cases: [string, string][] = [
  // IPv4
  ["0.0.0.0", "unspecified"],
  ["0.255.255.255", "unspecified"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["100.63.255.255", "public"],
  ["100.64.0.0", "cgnat"],
  ["100.127.255.255", "cgnat"],
  ["100.128.0.0", "public"],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["169.254.169.254", "link_local"],
  ["172.15.255.255", "public"],
  ["172.16.0.0", "private"],
  ["172.31.255.255", "private"],
  ["172.32.0.0", "public"],
  ["192.0.0.8", "reserved"],
  ["192.0.2.1", "documentation"],
  ["192.88.99.1", "reserved"],
  ["192.167.255.255", "public"],
  ["192.168.1.1", "private"],
  ["192.169.0.0", "public"],
  ["198.18.0.1", "benchmarking"],
  ["198.19.255.255", "benchmarking"],
  ["198.20.0.0", "public"],
  ["198.51.100.7", "documentation"],
  ["203.0.113.9", "documentation"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.255", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.255", "broadcast"],
  ["1.1.1.1", "public"],
  ["8.8.8.8", "public"],
  ["93.184.215.14", "public"],
  ["223.255.255.255", "public"],
  // IPv6
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["[::1]", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["::ffff:127.0.0.1", "ipv4_mapped"],
  ["::ffff:7f00:1", "ipv4_mapped"],
  ["::ffff:8.8.8.8", "ipv4_mapped"],
  ["::127.0.0.1", "ipv4_embedded"],
  ["64:ff9b::a00:1", "ipv4_embedded"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "ipv4_embedded"],
  ["2002:c0a8:101::1", "ipv4_embedded"],
  ["100::1", "reserved"],
  ["2001:db8::1", "documentation"],
  ["3fff::1", "documentation"],
  ["fc00::1", "unique_local"],
  ["fd12:3456:789a::1", "unique_local"],
  ["fe80::1", "link_local"],
  ["fe80::1%eth0", "link_local"],
  ["febf:ffff::1", "link_local"],
  ["fec0::1", "site_local"],
  ["ff02::1", "multicast"],
  ["ff0e::101", "multicast"],
  ["4000::1", "reserved"],
  ["1::1", "reserved"],
  ["2606:4700:4700::1111", "public"],
  ["2001:4860:4860::8888", "public"],
  ["2a00:1450:4001:80b::200e", "public"],
];

describe("classifyAddress", () => {
  for (const [address, expected] of cases) {
    it(`${address} is ${expected}`, () => {
      assert.equal(classifyAddress(address), expected);
      assert.equal(isPublicAddress(address), expected === "public");
    });
  }

  it("rejects what is not an IP address literal", () => {
    for (const input of ["localhost", "example.com", "1.2.3", "256.1.1.1", "::g", ""]) {
      assert.throws(() => classifyAddress(input), /not an IP address/, input);
    }
  });

  it("names the first non-public address of a list", () => {
    assert.equal(findBlockedAddress(["8.8.8.8", "2606:4700:4700::1111"]), undefined);
    assert.deepEqual(findBlockedAddress(["8.8.8.8", "10.1.2.3", "127.0.0.1"]), { address: "10.1.2.3", kind: "private" });
  });
});

describe("guardedLookup", () => {
  const lookup = (allowPrivate: boolean, options: { all?: boolean; family?: number }) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) =>
      guardedLookup(allowPrivate)("localhost", options, (error, address, family) => resolve({ error, address, family })),
    );

  it("refuses a name that resolves to loopback, in both call shapes", async () => {
    for (const options of [{}, { all: true }]) {
      const { error } = await lookup(false, options);
      assert.match(error?.message ?? "", /localhost resolves to .*loopback address; webhooks can only target public addresses/);
    }
  });

  it("passes the checked answers through when private targets are allowed", async () => {
    const single = await lookup(true, { family: 4 });
    assert.equal(single.error, null);
    assert.equal(single.address, "127.0.0.1");
    assert.equal(single.family, 4);
    const all = await lookup(true, { all: true, family: 4 });
    assert.deepEqual(all.address, [{ address: "127.0.0.1", family: 4 }]);
  });
});
