import { sha256 } from "@noble/hashes/sha2.js";
import { hexEncode, incrementStoredCounter, ttlSeconds, utf8Encode, type AuthContext } from "@latchkey/core";
import { TOTP_WINDOW } from "./totp.js";

/** A UUID-shaped id derived from `text`: fits the reference's `varchar(36)` ids and PostgreSQL `uuid` columns. */
function derivedId(text: string): string {
  const hex = hexEncode(sha256(utf8Encode(text))).slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Marks TOTP time step `step` used by `userId`; false when it already was. RFC 6238 §5.2: the
 * verifier must not accept a second attempt after a successful validation for the same step.
 * The mark is a verification row whose primary key is derived from user and step, so the
 * insert itself is the first-writer-wins gate: of concurrent submissions of one code exactly
 * one inserts, the others hit the key. It expires once the step has left the window.
 * When verification values live in secondary storage only (no table), the mark is a counter
 * there instead, and the atomic `increment` is the gate: only the caller that makes it 1 wins.
 * (The reference keeps no such mark and accepts a code again until it leaves the window.)
 */
export async function reserveTotpStep(auth: AuthContext, userId: string, step: number, period: number): Promise<boolean> {
  const identifier = `2fa-totp-used-${userId}-${step}`;
  const expiresAt = new Date((step + TOTP_WINDOW + 1) * period * 1000);
  const storage = auth.secondaryStorage;
  if (storage && !auth.options.verification?.storeInDatabase) {
    const ttl = Math.max(1, ttlSeconds(expiresAt));
    return (await incrementStoredCounter(storage, `verification:${identifier}`, ttl, auth.logger)) === 1;
  }
  const { adapter } = auth;
  const id = derivedId(identifier);
  const now = new Date();
  try {
    await adapter.create({
      model: "verification",
      data: { id, identifier, value: userId, expiresAt, createdAt: now, updatedAt: now },
    });
    return true;
  } catch (error) {
    // Not matching driver error codes: the key's row being there is what a duplicate means.
    const existing = await adapter.findOne({ model: "verification", where: [{ field: "id", value: id }] });
    if (existing) return false;
    throw error;
  }
}
