/**
 * The parts of an EIP-4361 ("Sign-In with Ethereum") message the server checks. Every field is
 * optional here: a message missing one simply fails the check that needs it.
 */
export interface SiweMessageFields {
  scheme?: string;
  domain?: string;
  address?: string;
  uri?: string;
  version?: string;
  chainId?: number;
  nonce?: string;
  issuedAt?: string;
  expirationTime?: string;
  notBefore?: string;
  requestId?: string;
}

const SUFFIX = " wants you to sign in with your Ethereum account:";
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Tag lines of EIP-4361 and the field each fills. */
const TAGS: Record<string, Exclude<keyof SiweMessageFields, "scheme" | "domain" | "address" | "chainId">> = {
  URI: "uri",
  Version: "version",
  Nonce: "nonce",
  "Issued At": "issuedAt",
  "Expiration Time": "expirationTime",
  "Not Before": "notBefore",
  "Request ID": "requestId",
};

/**
 * Reads an EIP-4361 message: line 1 `[scheme://]domain wants you to sign in with your Ethereum
 * account:`, line 2 the address, then `Tag: value` lines. Lenient like the reference's reader:
 * unknown or malformed lines are skipped, never thrown on.
 */
export function parseSiweMessage(message: string): SiweMessageFields {
  const lines = message.split(/\r?\n/);
  const fields: SiweMessageFields = {};
  const header = lines[0] ?? "";
  if (header.endsWith(SUFFIX)) {
    const origin = header.slice(0, -SUFFIX.length);
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(origin);
    const domain = scheme ? origin.slice(scheme[0].length) : origin;
    if (domain && !/\s/.test(domain)) {
      if (scheme?.[1]) fields.scheme = scheme[1];
      fields.domain = domain;
    }
  }
  const address = lines[1]?.trim();
  if (address && ADDRESS.test(address)) fields.address = address;
  for (const line of lines) {
    const colon = line.indexOf(": ");
    if (colon <= 0) continue;
    const tag = line.slice(0, colon);
    if (!/^[A-Za-z ]+$/.test(tag)) continue;
    const value = line.slice(colon + 2);
    if (tag === "Chain ID") {
      const chainId = Number(value);
      if (Number.isInteger(chainId)) fields.chainId = chainId;
    } else if (Object.hasOwn(TAGS, tag)) {
      fields[TAGS[tag]!] = value;
    }
  }
  return fields;
}

/** A domain as compared: lower-cased `host[:port]`, without a scheme or path. */
export function normalizeDomain(domain: string): string {
  const bare = domain
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  const slash = bare.indexOf("/");
  return slash === -1 ? bare : bare.slice(0, slash);
}
