import { isPublicHost } from "./public-host.js";

/** The addresses a host name resolves to (every A and AAAA answer). */
export type HostLookup = (hostname: string) => Promise<string[]>;

const LOOKUP_TIMEOUT_MS = 5000;

/** `node:dns` `lookup` with `all`: the system resolver, `/etc/hosts` included, as the fetch itself resolves. */
const systemLookup: HostLookup = async (hostname) => {
  const dns = await import("node:dns/promises");
  return (await dns.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
};

/** Whether `node:dns` exists here (Node, Bun, Deno); edge runtimes without it fetch through the platform. */
async function dnsAvailable(): Promise<boolean> {
  try {
    await import("node:dns/promises");
    return true;
  } catch {
    return false;
  }
}

const IP_LITERAL = /^[\d.]+$|:/;

/**
 * SSRF guard at fetch time: why a server-side request to `hostname` must not be sent, or null.
 * The URL checks before it look at the name only; a public-looking name whose DNS answer is
 * 127.0.0.1, 10.x or 169.254.169.254 would still reach the inside. So the name is resolved
 * right before the request and every address must be publicly routable (one private answer
 * refuses: the connection may pick any of them). A name that does not resolve is refused too.
 * IP literals were judged by the URL checks; allow-listed hosts are the caller's to skip.
 * What remains is the window between this lookup and the connection's own (DNS rebinding with
 * a zero TTL); `fetch` offers no portable way to connect to the checked address.
 */
export async function privateResolutionProblem(hostname: string, lookup?: HostLookup): Promise<string | null> {
  const host = hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (IP_LITERAL.test(host)) return null;
  if (!lookup && !(await dnsAvailable())) return null;
  let addresses: string[];
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("DNS lookup timed out")), LOOKUP_TIMEOUT_MS);
    });
    addresses = await Promise.race([(lookup ?? systemLookup)(host), timeout]);
  } catch {
    return "host does not resolve";
  } finally {
    clearTimeout(timer);
  }
  if (!addresses.length) return "host does not resolve";
  return addresses.every((address) => isPublicHost(address)) ? null : "host resolves to a private or reserved address";
}
