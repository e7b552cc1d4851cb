import { symmetricDecrypt as decrypt } from "@latchkey/core";
export { TEST_SECRET } from "@latchkey/test-support";

/** Core's XChaCha20-Poly1305 decryption with a string secret (the reference's "encrypted" OTP form). */
export const symmetricDecrypt = (secret: string, data: string): Promise<string> => decrypt({ key: secret, data });
