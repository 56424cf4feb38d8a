import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import net from "node:net";

// Which addresses a webhook may reach. Partners choose the URL, so without this
// check the worker would POST into our own network (metadata services, the
// database, loopback admin ports). The classifier is used twice: when the URL is
// registered (every resolved address must be public) and when the worker
// connects (guardedLookup hands the socket only an address it has just checked,
// so a DNS answer that changes between check and connect cannot slip through).

export type AddressClass =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "cgnat"
  | "link_local"
  | "multicast"
  | "broadcast"
  | "documentation"
  | "benchmarking"
  | "reserved"
  | "ipv4_mapped"
  | "ipv4_embedded"
  | "unique_local"
  | "site_local";

interface Range {
  base: bigint;
  bits: number;
  prefix: number;
  kind: Exclude<AddressClass, "public">;
}

// First match wins, so specific ranges come before the ones that contain them.
const ipv4Ranges: Range[] = [
  ["255.255.255.255/32", "broadcast"],
  ["0.0.0.0/8", "unspecified"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "cgnat"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link_local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "reserved"],
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "reserved"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
].map(([cidr, kind]) => range(cidr as string, kind as Range["kind"], 32));

const ipv6Ranges: Range[] = [
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["::ffff:0:0/96", "ipv4_mapped"],
  ["::/96", "ipv4_embedded"], // deprecated IPv4-compatible addresses
  ["::ffff:0:0:0/96", "ipv4_embedded"], // SIIT
  ["64:ff9b::/96", "ipv4_embedded"], // NAT64: the embedded IPv4 address may be private
  ["64:ff9b:1::/48", "ipv4_embedded"],
  ["100::/64", "reserved"], // discard-only
  ["2001::/32", "ipv4_embedded"], // Teredo
  ["2001:2::/48", "benchmarking"],
  ["2001:10::/28", "reserved"], // ORCHID
  ["2001:20::/28", "reserved"], // ORCHIDv2
  ["2001:db8::/32", "documentation"],
  ["2002::/16", "ipv4_embedded"], // 6to4
  ["3fff::/20", "documentation"],
  ["fc00::/7", "unique_local"],
  ["fe80::/10", "link_local"],
  ["fec0::/10", "site_local"],
  ["ff00::/8", "multicast"],
].map(([cidr, kind]) => range(cidr as string, kind as Range["kind"], 128));

/** Global unicast space; anything else in IPv6 is unallocated or special. */
const ipv6GlobalUnicast = range("2000::/3", "reserved", 128);

function range(cidr: string, kind: Range["kind"], bits: number): Range {
  const [address, prefix] = cidr.split("/") as [string, string];
  return { base: bits === 32 ? parseIPv4(address) : parseIPv6(address), bits, prefix: Number(prefix), kind };
}

function contains(r: Range, value: bigint): boolean {
  const shift = BigInt(r.bits - r.prefix);
  return value >> shift === r.base >> shift;
}

function parseIPv4(address: string): bigint {
  return address.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function parseIPv6(address: string): bigint {
  let text = address;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail?.[1]) {
    const v4 = parseIPv4(tail[1]);
    text = `${text.slice(0, -tail[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = "", rest] = text.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":") : [];
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/** Strips brackets and an IPv6 zone id ("fe80::1%eth0"). */
function bare(address: string): string {
  return address.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
}

/** The class of an IP address literal; throws on anything that is not one. */
export function classifyAddress(address: string): AddressClass {
  const ip = bare(address);
  const family = net.isIP(ip);
  if (family === 4) {
    const value = parseIPv4(ip);
    return ipv4Ranges.find((r) => contains(r, value))?.kind ?? "public";
  }
  if (family === 6) {
    const value = parseIPv6(ip);
    const special = ipv6Ranges.find((r) => contains(r, value));
    if (special) return special.kind;
    return contains(ipv6GlobalUnicast, value) ? "public" : "reserved";
  }
  throw new Error(`not an IP address: ${address}`);
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === "public";
}

const describe: Record<Exclude<AddressClass, "public">, string> = {
  unspecified: "an unspecified address",
  loopback: "a loopback address",
  private: "a private address",
  cgnat: "a carrier-grade NAT address",
  link_local: "a link-local address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  documentation: "a documentation-only address",
  benchmarking: "a benchmarking address",
  reserved: "a reserved address",
  ipv4_mapped: "an IPv4-mapped IPv6 address",
  ipv4_embedded: "an IPv6 address embedding an IPv4 address",
  unique_local: "a unique-local (private) IPv6 address",
  site_local: "a site-local (private) IPv6 address",
};

/** Thrown (or passed to a socket) when a target is not publicly routable. */
export class BlockedAddressError extends Error {
  override name = "BlockedAddressError";
  readonly code = "EBLOCKEDADDRESS";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: AddressClass,
  ) {
    const via = bare(host) === bare(address) ? "" : ` resolves to ${address}, which is`;
    super(`${host}${via || " is"} ${describe[kind as Exclude<AddressClass, "public">] ?? "not public"}; webhooks can only target public addresses`);
  }
}

/** The first address that is not public, if any. */
export function findBlockedAddress(addresses: readonly string[]): { address: string; kind: AddressClass } | undefined {
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind !== "public") return { address, kind };
  }
  return undefined;
}

/**
 * A drop-in `lookup` for http.request / net.connect that resolves the name,
 * refuses it when any answer is not public (unless private targets are
 * allowed), and hands the socket exactly the answers it checked. Handles both
 * call shapes Node uses (single address, and `all: true` for happy eyeballs).
 */
export function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === "IPv6" ? 6 : options.family === "IPv4" ? 4 : Number(options.family ?? 0);
    dnsLookup(hostname, { all: true, verbatim: true, family }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
      const blocked = allowPrivate ? undefined : findBlockedAddress(addresses.map((a) => a.address));
      if (blocked) return callback(new BlockedAddressError(hostname, blocked.address, blocked.kind), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** Every address a URL host stands for: the literal itself, or its DNS answers. */
export async function resolveHost(host: string, timeoutMs = 5000): Promise<string[]> {
  const literal = bare(host);
  if (net.isIP(literal)) return [literal];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`DNS lookup of ${host} timed out`), { code: "ETIMEOUT" })), timeoutMs);
  });
  try {
    const answers = await Promise.race([lookupAll(host), timeout]);
    return answers.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}

function lookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}

/** The host of a URL as a socket needs it: IPv6 literals without brackets. */
export function hostOf(url: URL): string {
  return bare(url.hostname);
}
