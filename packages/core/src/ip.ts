import type { LatchkeyOptions } from "./options.js";
import { isDevelopmentOrTest } from "./env.js";

/** `advanced.ipAddress` option group: where the client address comes from and how it is keyed. */
export interface IPAddressOptions {
  /** Request headers read in order; the first one that yields an address wins. @default ["x-forwarded-for"] */
  ipAddressHeaders?: string[];
  /** No address anywhere: sessions store `""` and rate limiting is skipped. @default false */
  disableIpTracking?: boolean;
  /** IPv6 prefix length kept (the rest is zeroed), so one /64 is one client. @default 64 */
  ipv6Subnet?: number;
  /**
   * Reverse-proxy addresses or CIDR ranges (`["192.0.2.10", "10.0.0.0/24"]`). When set, a
   * forwarded chain is walked right to left past these hops and the first other address is
   * the client. Unset: only a header holding exactly one address is believed.
   */
  trustedProxies?: string[];
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Expands an IPv6 address to eight 4-digit groups, or returns null when it is not one. */
function expandIPv6(address: string): string[] | null {
  if (!/^[0-9a-f:.]+$/.test(address) || address.split("::").length > 2) return null;
  const [head = "", tail] = address.split("::");
  const split = (part: string): string[] => (part ? part.split(":") : []);
  const left = split(head);
  const right = tail === undefined ? [] : split(tail);
  const last = right.length ? right[right.length - 1] : left[left.length - 1];
  // An embedded IPv4 tail takes the room of two groups.
  if (last && last.includes(".")) {
    if (!IPV4.test(last)) return null;
    const [a, b, c, d] = last.split(".").map(Number) as [number, number, number, number];
    const groups = [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    if (right.length) right.splice(-1, 1, ...groups);
    else left.splice(-1, 1, ...groups);
  }
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => g.padStart(4, "0"));
}

/** IPv4-mapped IPv6 (`::ffff:a.b.c.d`) as the IPv4 address it carries, else null. */
function mappedIPv4(groups: string[]): string | null {
  if (!groups.slice(0, 5).every((g) => g === "0000") || groups[5] !== "ffff") return null;
  const hi = parseInt(groups[6]!, 16);
  const lo = parseInt(groups[7]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * Normalises an address as the reference stores it: IPv4 as is, IPv4-mapped IPv6 as IPv4,
 * other IPv6 fully expanded and masked to `subnet` bits (default /64). Null if invalid.
 */
export function normalizeIP(raw: string, subnet = 64): string | null {
  const value = raw.trim().toLowerCase();
  if (IPV4.test(value)) return value;
  const groups = expandIPv6(value);
  if (!groups) return null;
  const v4 = mappedIPv4(groups);
  if (v4) return v4;
  // Out-of-range prefixes degrade as in the reference: below 0 masks everything, above 128 nothing.
  const masked = groups.map((g, i) => {
    const bits = Math.max(0, Math.min(16, Math.floor(subnet) - i * 16));
    const mask = bits === 0 ? 0 : (0xffff << (16 - bits)) & 0xffff;
    return (parseInt(g, 16) & mask).toString(16).padStart(4, "0");
  });
  return masked.join(":");
}

/** The address as bytes (4 for IPv4 and IPv4-mapped IPv6, 16 for IPv6), or null if invalid. */
function addressBytes(raw: string): Uint8Array | null {
  const value = raw.trim().toLowerCase();
  const v4 = IPV4.test(value) ? value : null;
  const groups = v4 ? null : expandIPv6(value);
  if (!v4 && !groups) return null;
  const dotted = v4 ?? mappedIPv4(groups!);
  if (dotted) return Uint8Array.from(dotted.split(".").map(Number));
  const bytes = new Uint8Array(16);
  groups!.forEach((g, i) => {
    const n = parseInt(g, 16);
    bytes[i * 2] = n >> 8;
    bytes[i * 2 + 1] = n & 255;
  });
  return bytes;
}

interface Network {
  bytes: Uint8Array;
  prefix: number;
}

/** Parses `address` or `address/prefix`; null for anything else (so a typo is never a silent non-match). */
function parseNetwork(entry: string): Network | null {
  const slash = entry.lastIndexOf("/");
  const bytes = addressBytes(slash === -1 ? entry : entry.slice(0, slash));
  if (!bytes) return null;
  const max = bytes.length * 8;
  if (slash === -1) return { bytes, prefix: max };
  const prefix = entry.slice(slash + 1);
  if (!/^\d+$/.test(prefix) || Number(prefix) > max) return null;
  return { bytes, prefix: Number(prefix) };
}

function inNetwork(bytes: Uint8Array, net: Network): boolean {
  if (bytes.length !== net.bytes.length) return false;
  for (let bit = 0; bit < net.prefix; bit += 8) {
    const take = Math.min(8, net.prefix - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (net.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

/**
 * Refuses `trustedProxies` entries that are neither an address nor a CIDR range. The reference
 * only warns and drops them, which can leave every client behind that proxy without a
 * resolvable address (one shared rate-limit bucket); a typo here must stop the start-up.
 */
export function assertIPAddressOptions(options: IPAddressOptions | undefined): void {
  const invalid = (options?.trustedProxies ?? []).filter((entry) => parseNetwork(entry) === null);
  if (invalid.length) {
    throw new TypeError(
      `advanced.ipAddress.trustedProxies: ${invalid.map((e) => JSON.stringify(e)).join(", ")} is not an IP address or CIDR range.`,
    );
  }
}

// Parsed once per options array: getClientIP runs on every request.
const parsed = new WeakMap<readonly string[], Network[]>();
function networks(entries: readonly string[] | undefined): Network[] {
  if (!entries?.length) return [];
  let nets = parsed.get(entries);
  if (!nets) {
    nets = entries.map(parseNetwork).filter((n): n is Network => n !== null);
    parsed.set(entries, nets);
  }
  return nets;
}

/**
 * The client address in one header value. The leftmost hop of a forwarded chain is whatever
 * the client wrote, so with trusted proxies the chain is stripped from the right up to the
 * first untrusted hop (an unparsable hop ends the walk: nothing past it can be trusted);
 * without them only a single-address value is believed.
 */
function fromHeader(value: string, nets: Network[], subnet: number | undefined): string | null {
  const hops = value
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  if (nets.length === 0) return hops.length === 1 ? normalizeIP(hops[0]!, subnet) : null;
  for (let i = hops.length - 1; i >= 0; i--) {
    const bytes = addressBytes(hops[i]!);
    if (!bytes) return null;
    if (nets.some((net) => inNetwork(bytes, net))) continue;
    return normalizeIP(hops[i]!, subnet);
  }
  return null;
}

/**
 * The client address from the configured headers (normalised), `127.0.0.1` in development
 * and test when none is found (reference rule), otherwise null.
 */
export function getClientIP(headers: Headers, options: LatchkeyOptions): string | null {
  const ip = options.advanced?.ipAddress;
  if (ip?.disableIpTracking) return null;
  const nets = networks(ip?.trustedProxies);
  for (const name of ip?.ipAddressHeaders ?? ["x-forwarded-for"]) {
    const value = headers.get(name);
    if (value === null) continue;
    const address = fromHeader(value, nets, ip?.ipv6Subnet);
    if (address) return address;
  }
  return isDevelopmentOrTest() ? "127.0.0.1" : null;
}
