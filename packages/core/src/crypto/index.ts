// Public crypto surface of core: every primitive the reference's wire and storage formats need.
export { constantTimeEqual } from "./constant-time.js";
export {
  base64Decode,
  base64Encode,
  base64UrlDecode,
  base64UrlEncode,
  hexDecode,
  hexEncode,
  utf8Decode,
  utf8Encode,
} from "./encoding.js";
export {
  hmacBase64Url,
  hmacSha256,
  signCookieValue,
  verifyHmacBase64Url,
  verifySignedCookieValue,
} from "./hmac.js";
export { symmetricDecodeJWT, symmetricEncodeJWT } from "./jwe.js";
export { signJWT, verifyJWT } from "./jwt.js";
export { hashPassword, verifyPassword } from "./password.js";
export { generateId, generateRandomString, type Alphabet } from "./random.js";
export { symmetricDecrypt, symmetricEncrypt, type SecretConfig, type SymmetricOptions } from "./symmetric.js";
export type { JWTPayload } from "jose";
