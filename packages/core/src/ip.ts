import type { LatchkeyOptions } from "./options.js";
import { isDevelopmentOrTest } from "./env.js";

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

/**
 * Normalises an address as the reference stores it: IPv4 as is, IPv4-mapped IPv6 as IPv4,
 * other IPv6 fully expanded and masked to `subnet` bits (default /64). Null if invalid.
 */
export function normalizeIP(raw: string, subnet = 64): string | null {
  const value = raw.trim().toLowerCase();
  if (IPV4.test(value)) return value;
  const groups = expandIPv6(value.replace(/^\[|\]$/g, ""));
  if (!groups) return null;
  if (groups.slice(0, 5).every((g) => g === "0000") && groups[5] === "ffff") {
    const hi = parseInt(groups[6]!, 16);
    const lo = parseInt(groups[7]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  const masked = groups.map((g, i) => {
    const bits = Math.max(0, Math.min(16, subnet - i * 16));
    const mask = bits === 0 ? 0 : (0xffff << (16 - bits)) & 0xffff;
    return (parseInt(g, 16) & mask).toString(16).padStart(4, "0");
  });
  return masked.join(":");
}

/**
 * The client address from the configured headers. Without trusted proxies a header counts
 * only when it holds exactly one valid address: a comma list may carry spoofed hops.
 */
export function getClientIP(headers: Headers, options: LatchkeyOptions): string | null {
  const ip = options.advanced?.ipAddress;
  if (ip?.disableIpTracking) return null;
  for (const name of ip?.ipAddressHeaders ?? ["x-forwarded-for"]) {
    const value = headers.get(name);
    if (!value || value.includes(",")) continue;
    const normalized = normalizeIP(value, ip?.ipv6Subnet);
    if (normalized) return normalized;
  }
  return isDevelopmentOrTest() ? "127.0.0.1" : null;
}
