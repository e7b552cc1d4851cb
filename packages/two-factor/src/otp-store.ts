import { sha256 } from "@noble/hashes/sha2.js";
import { base64UrlEncode, constantTimeEqual, symmetricDecrypt, symmetricEncrypt, utf8Encode } from "@latchkey/core";
import type { StoreOTPOption } from "./options.js";

/** `"hashed"` storage: base64url (no padding) SHA-256 of the code, the reference's default key hasher. */
const hashOTP = (otp: string): string => base64UrlEncode(sha256(utf8Encode(otp)));

/** The form a sent code is stored in, per `storeOTP`. */
export async function storedOTP(otp: string, store: StoreOTPOption, secret: string): Promise<string> {
  if (store === "hashed") return hashOTP(otp);
  if (store === "encrypted") return symmetricEncrypt({ key: secret, data: otp });
  if (typeof store === "object") return "hash" in store ? store.hash(otp) : store.encrypt(otp);
  return otp;
}

/** Whether `input` is the code `stored` holds; the final comparison is constant-time. */
export async function otpMatches(stored: string, input: string, store: StoreOTPOption, secret: string): Promise<boolean> {
  let expected = stored;
  let given = input;
  if (store === "hashed") given = hashOTP(input);
  else if (store === "encrypted") expected = await symmetricDecrypt({ key: secret, data: stored });
  else if (typeof store === "object") {
    if ("hash" in store) given = await store.hash(input);
    else expected = await store.decrypt(stored);
  }
  return constantTimeEqual(expected, given);
}
