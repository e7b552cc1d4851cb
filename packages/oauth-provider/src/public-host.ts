/**
 * Whether a URL host (as `URL.hostname` gives it) is publicly routable, syntactically: not a
 * loopback, private, link-local, shared, reserved, documentation or multicast address (RFC 6890
 * ranges, IPv4-mapped and NAT64 IPv6 included), not `localhost` or a `.localhost`, `.local`,
 * `.internal` or `.home.arpa` name, not a cloud metadata name. DNS is not resolved: a public name
 * that resolves to a private address is not caught here.
 */
export function isPublicHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (!host) return false;
  if (host.includes(":")) return publicIPv6(host);
  if (/^[\d.]+$/.test(host) || /^0x/i.test(host)) return publicIPv4(host);
  if (!host.includes(".")) return false;
  if (host === "localhost" || /\.(localhost|local|internal|home\.arpa|localdomain)$/.test(host)) return false;
  return !["metadata.google.internal", "metadata", "instance-data"].includes(host);
}

function ipv4Octets(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255)) return null;
  return parts.map(Number);
}

function publicIPv4(host: string): boolean {
  const octets = ipv4Octets(host);
  if (!octets) return false; // shorthand, octal or hex forms: never treated as public
  const [a, b, c] = octets as [number, number, number, number];
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 100 && b >= 64 && b <= 127) return false; // shared address space
  if (a === 169 && b === 254) return false; // link-local, cloud metadata
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return false; // IETF protocol, TEST-NET-1
  if (a === 192 && b === 88 && c === 99) return false; // 6to4 relay
  if (a === 198 && (b === 18 || b === 19)) return false; // benchmarking
  if (a === 198 && b === 51 && c === 100) return false; // TEST-NET-2
  if (a === 203 && b === 0 && c === 113) return false; // TEST-NET-3
  return true;
}

function publicIPv6(host: string): boolean {
  if (host === "::" || host === "::1") return false;
  const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (mapped) return publicIPv4(mapped[1]!);
  if (/^::ffff:/.test(host) || /^64:ff9b:/.test(host)) return false; // mapped forms written in hex
  const first = Number.parseInt(host.split(":")[0] || "0", 16);
  if ((first & 0xfe00) === 0xfc00) return false; // unique local
  if ((first & 0xffc0) === 0xfe80) return false; // link-local
  if ((first & 0xff00) === 0xff00) return false; // multicast
  if (first === 0x2001 && /^2001:(0{0,4}|0?db8):/.test(host)) return false; // Teredo, documentation
  if (first === 0x2002) return false; // 6to4
  if (first === 0 || first === 0x100) return false; // IPv4-compatible, discard-only
  return true;
}
