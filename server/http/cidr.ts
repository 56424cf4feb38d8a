import { BlockList, isIP } from "node:net";
import { AppError } from "@/server/errors";

// IP allow-lists of API keys: a list of CIDR blocks (or single addresses),
// IPv4 and IPv6. Parsed lists are cached by their text, since the same few
// lists are checked on every request of their keys.

const cache = new Map<string, BlockList>();
const CACHE_MAX = 1000;

/** "203.0.113.0/24" -> [address, prefix, family], or an error message. */
export function parseCidr(text: string): { address: string; prefix: number; family: "ipv4" | "ipv6" } | string {
  const [address = "", prefixText, extra] = text.trim().split("/");
  if (extra !== undefined) return `${text} is not a CIDR block`;
  const version = isIP(address);
  if (version === 0) return `${text} is not an IP address or CIDR block`;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return `${text}: the prefix length must be 0-${max}`;
  return { address, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

/** Normalises a list typed by a person (commas, spaces or new lines); throws validation_error on the first bad entry. */
export function normaliseCidrList(input: string | readonly string[]): string[] {
  const entries = (typeof input === "string" ? input.split(/[\s,]+/) : input).map((e) => e.trim()).filter(Boolean);
  if (entries.length > 50) throw new AppError("validation_error", "an allow-list holds at most 50 entries", [{ path: "allowedCidrs", message: "at most 50 entries" }]);
  return [
    ...new Set(
      entries.map((entry) => {
        const parsed = parseCidr(entry);
        if (typeof parsed === "string") throw new AppError("validation_error", parsed, [{ path: "allowedCidrs", message: parsed }]);
        return `${parsed.address}/${parsed.prefix}`;
      }),
    ),
  ];
}

function blockListFor(cidrs: readonly string[]): BlockList {
  const key = cidrs.join(",");
  let list = cache.get(key);
  if (!list) {
    list = new BlockList();
    for (const cidr of cidrs) {
      const parsed = parseCidr(cidr);
      if (typeof parsed !== "string") list.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, list);
  }
  return list;
}

/** Whether `ip` is inside one of the blocks. An unknown address is never allowed by a list. */
export function ipAllowed(ip: string, cidrs: readonly string[]): boolean {
  const version = isIP(ip);
  if (version === 0) return false;
  return blockListFor(cidrs).check(ip, version === 4 ? "ipv4" : "ipv6");
}
