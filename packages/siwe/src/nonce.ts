/** EIP-4361 nonces: 8 or more letters and digits; the reference caps them at 250. */
export const isValidNonce = (nonce: unknown): nonce is string =>
  typeof nonce === "string" && nonce.length >= 8 && nonce.length <= 250 && /^[a-zA-Z0-9]+$/.test(nonce);

/** The verification identifier a nonce is stored under until `/siwe/verify` consumes it. */
export const nonceIdentifier = (nonce: string): string => `siwe:${nonce}`;

/** Seconds a nonce stays redeemable. */
export const NONCE_LIFETIME_SECONDS = 15 * 60;
