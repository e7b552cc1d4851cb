import type { StoreIdentifierConfig, StoreIdentifierOption } from "../storage-options.js";
import { base64UrlEncode, utf8Encode } from "../../crypto/encoding.js";

/** The option for one identifier: the first override whose prefix it starts with, else the default. */
export function identifierOption(
  identifier: string,
  config: StoreIdentifierConfig | undefined,
): StoreIdentifierOption | undefined {
  if (!config) return undefined;
  if (typeof config === "object" && "default" in config) {
    for (const [prefix, option] of Object.entries(config.overrides ?? {}))
      if (identifier.startsWith(prefix)) return option;
    return config.default;
  }
  return config;
}

/**
 * The identifier as stored: as given (`plain`), unpadded base64url of its SHA-256 (`hashed`,
 * the reference's hasher, so both sides find each other's rows), or the configured hash.
 * Hashing keeps a readable database or Redis from handing out live reset tokens and codes.
 */
export async function storedIdentifier(
  identifier: string,
  option: StoreIdentifierOption | undefined,
): Promise<string> {
  if (!option || option === "plain") return identifier;
  if (option === "hashed") {
    return base64UrlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(identifier))));
  }
  return option.hash(identifier);
}

/**
 * Stored forms to look for, preferred first. With hashing on, the plain form is tried too so
 * values written before hashing was turned on still resolve (the reference does the same).
 */
export async function identifierForms(
  identifier: string,
  config: StoreIdentifierConfig | undefined,
): Promise<{ stored: string; candidates: string[] }> {
  const option = identifierOption(identifier, config);
  const stored = await storedIdentifier(identifier, option);
  return {
    stored,
    candidates: option && option !== "plain" && stored !== identifier ? [stored, identifier] : [stored],
  };
}
