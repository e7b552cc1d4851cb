import { keccak_256 } from "@noble/hashes/sha3.js";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The EIP-55 mixed-case form of an Ethereum address (the form wallet rows and account ids are
 * stored in), or null when `address` is not `0x` and 40 hex digits.
 */
export function checksumAddress(address: string | undefined): string | null {
  if (!address || !ADDRESS.test(address)) return null;
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = "0x";
  for (let i = 0; i < hex.length; i++) {
    // The i-th nibble of the hash decides the case of the i-th hex digit.
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? hex[i]!.toUpperCase() : hex[i];
  }
  return out;
}
