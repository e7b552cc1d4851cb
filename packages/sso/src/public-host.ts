/**
 * Whether a host is publicly routable (RFC 6890 special-purpose ranges refused), for OIDC
 * endpoints fetched server-side: loopback, private (RFC 1918, ULA), link-local (cloud
 * metadata at 169.254.169.254), shared address space, documentation, benchmarking,
 * multicast and reserved ranges, `localhost` and cloud-metadata host names are not.
 */

/** Cloud metadata host names, reachable only from inside the cloud. */
const METADATA_HOSTS = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** IPv4 ranges that are not publicly routable: [first octets as a number, prefix length]. */
const IPV4_BLOCKED: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

const ipv4Number = (ip: string): number =>
  ip.split(".").reduce((n, part) => ((n << 8) | Number(part)) >>> 0, 0);

const IPV4_DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function isPublicIPv4(ip: string): boolean {
  const n = ipv4Number(ip);
  return !IPV4_BLOCKED.some(([base, length]) => {
    const mask = length === 0 ? 0 : (-1 << (32 - length)) >>> 0;
    return (n & mask) === (ipv4Number(base) & mask);
  });
}

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail), or null. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip;
  const tail = IPV4_DOTTED.exec(text.slice(text.lastIndexOf(":") + 1));
  if (tail) {
    const n = ipv4Number(tail[0]);
    text = `${text.slice(0, text.lastIndexOf(":") + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part ? part.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = 8 - head.length - rest.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? fill : 0).fill(0), ...rest];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
}

const embeddedIPv4 = (high: number, low: number): string =>
  [high >>> 8, high & 0xff, low >>> 8, low & 0xff].join(".");

function isPublicIPv6(ip: string): boolean {
  const g = ipv6Groups(ip);
  if (!g) return false;
  const [g0, g1] = [g[0]!, g[1]!];
  if (g.every((x) => x === 0)) return false; // unspecified
  if (g.slice(0, 7).every((x) => x === 0)) return false; // ::1 and IPv4-compatible
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return isPublicIPv4(embeddedIPv4(g[6]!, g[7]!)); // ::ffff:a.b.c.d
  if (g0 >>> 8 === 0xff) return false; // multicast ff00::/8
  if ((g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0) return false; // link-local, site-local
  if ((g0 & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation
  if (g0 === 0x3fff && g1 >>> 12 === 0) return false; // documentation 3fff::/20
  if (g0 === 0x2001 && g1 === 0x0002 && g[2] === 0) return false; // benchmarking
  if (g0 === 0x2001 && g1 === 0) return false; // Teredo
  if (g0 === 0x0064 && g1 === 0xff9b) return false; // NAT64
  if (g0 === 0x0100 && g1 === 0 && g[2] === 0 && g[3] === 0) return false; // discard-only
  if (g0 === 0x5f00) return false; // SRv6 SIDs
  if (g0 === 0x2002) return isPublicIPv4(embeddedIPv4(g1, g[2]!)); // 6to4
  return true;
}

/** Whether `hostname` (as `URL` parses it: IPv4 dotted, IPv6 bracketed, or a name) is publicly routable. */
export function isPublicRoutableHost(hostname: string): boolean {
  const host = hostname
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "")
    .replace(/\.+$/, "");
  if (!host) return false;
  if (IPV4_DOTTED.test(host)) return host.split(".").every((o) => Number(o) <= 255) && isPublicIPv4(host);
  if (host.includes(":")) return isPublicIPv6(host);
  if (host === "localhost" || host.endsWith(".localhost") || METADATA_HOSTS.has(host)) return false;
  return true;
}

/** Whether a host name is a DNS name (not an IP literal), so that its addresses need resolving. */
export const isDomainName = (hostname: string): boolean => {
  const host = hostname.replace(/^\[|\]$/g, "");
  return !IPV4_DOTTED.test(host) && !host.includes(":");
};
