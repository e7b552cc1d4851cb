// Literals produced ONCE by the reference (better-auth@1.7.6 from packages/compat-tests, run on
// Node 20 with a throwaway script) and pasted here, so core's tests need no reference install.
// "ours" entries were produced by Latchkey and checked with the reference's functions
// (`verifyPassword`, `symmetricDecrypt`, `symmetricDecodeJWT`) before being pasted.
//
// Generators: `hashPassword`, `symmetricEncrypt`, `makeSignature` (better-call's signer),
// `signJWT`, `symmetricEncodeJWT` from "better-auth/crypto"; `createHMAC("SHA-256",
// "base64urlnopad")` from "@better-auth/utils/hmac" (the compact cookie cache signer); `live`
// is the Set-Cookie of a live `betterAuth()` instance (memory adapter, cookie cache on) after
// sign-up and after sign-in with rememberMe: false. JWT/JWE were made with `Date` fixed at
// `FIXED_TIME`.

/** Default secret of the reference, used by most vectors. */
export const SECRET = "better-auth-secret-12345678901234567890";

/** 2026-01-01T00:00:00Z in ms, the clock the JWT/JWE vectors were made at. */
export const FIXED_TIME = 1767225600000;

/** Reference `hashPassword` outputs. */
export const REFERENCE_HASHES = [
  {
    password: "password123",
    hash: "73078286c2179657e50f1228b035ca2d:c317592c05556877f5d21fd39601691cd8b636e0406d27fdecac19e76425a908d55c46284c5e665894fbe96122fdb0b4ab017e440bdeb31b98990a4095f1f95f",
  },
  {
    password: "correct horse battery staple",
    hash: "22f87832249442ec035108ba0e087c5b:7997e005fd639e672bcea83d69f320d586b192edec5d07cb6c1003695f7c5623a4733197199ab1e33b85b2ce5ebd6ad1f6cec1d81d1b4a80652c2569fe81bc8c",
  },
  {
    password: "ｐａｓｓｗｏｒｄ１２３",
    hash: "9678ed646808ef1170c25ba749c7ce44:096a2cec89f1626f7ad36bdc81b9fe2118eedac9dc1762b812ba25fc78c24f5312669c4ca812c7e079309bcf86fd0d8ceb587a8bc2a445d256f5ef34a647357c",
  },
  {
    password: "café-crème",
    hash: "6c74b4a33d7b44795e39a6b9b3b7d258:3a26cd47cba8527925701eefd2fa381f141d4e4d46b84de7870cc1b860a51f27f560bb4883f36e486b4a1763f8d3308c7c0014f75e3c1bda452dd2bb0a096821",
  },
  {
    password: "ﬁÅΩ-12345",
    hash: "fcfe43065a72ba98e8619ad4714262bc:756110101348e02fff1de050e491e0b117990589cf2a931eaafd2314df5456f74fca7528b3b8ed45f72d9318973288a639724135feacb43b7371c9125934c096",
  },
  {
    password: "🔐 p@ss wörd",
    hash: "48e439c49cab52e0b7e60f853ea0d968:259c7b1fcf77e8b95d419d2e0709f0f58a452b41032ab6a9809194cf514e9549b8aacbd3a835a75b33c69fb1fa15a6a97dc83787d28113603128cd8569229bbb",
  },
];

/** Latchkey `hashPassword` outputs, each verified by the reference's `verifyPassword`. */
export const OUR_HASHES = [
  {
    password: "password123",
    hash: "8ef274e36887177e1cae5d14fbb870e0:0860aad6062f50bb111b015df474b7d35c035b749cda23aca65b3d0990e8bbff5080e5ed7132d4c62629d7d6099f4f0bc396fd6e7d802fbee542c256d2a7bd51",
  },
  {
    password: "ｐａｓｓｗｏｒｄ１２３",
    hash: "82e89539a4f724df18cbd908d80ca2dc:cd23aa61fb5af40b3a0a1a7b6ee5d21d17c8b4a2d0a331b0bb9e9fe9df886dfe22878bca0df5ff2fbdcf8b4eec5370368828c448bb7595d21bc99dead7c1f894",
  },
  {
    password: "🔐 p@ss wörd",
    hash: "3273cffaeadbda69a0f0d1f4da98f5d7:ecf78c76f1f4f5e49ff8292a0559b1232e27da4441006c27944d1445fb285077ba842b0b62689a1b7a78aa676820fd602703b72a8449f236f5f84e8cb80ef658",
  },
];

/** Reference `symmetricEncrypt({ key, data })` outputs (bare hex). */
export const REFERENCE_CIPHERTEXTS = [
  {
    key: "better-auth-secret-12345678901234567890",
    data: "hello",
    ciphertext: "75b81c0d999b19c71d26abdd2d7f316f89717838c4131b21aefec2709e16f3d657ed73dbb29e9b038457f2243a",
  },
  {
    key: "better-auth-secret-12345678901234567890",
    data: "",
    ciphertext: "dea122d1ba1b436d3643bc00e7ff2f29b1fb1541d363671fb53bf3db24ddb8272c63192ebe22c811",
  },
  {
    key: "another secret",
    data: "ya29.a0AfH6SMB-access-token",
    ciphertext:
      "188fba6845a0e96205e56c36b2280ba91c8ca8bd20b025dac3c6497fa438232793894d82b65b2dc80e176742bf7888c41552361e19b3b5afceca41de335632572f975a",
  },
  {
    key: "ключ",
    data: "ünïcødé ✓ 🔑",
    ciphertext:
      "e8e52eed541584c289f46496cb273f5b04389c6648d5004863ee849b3bde4d5e860eb3222fa1bdc590027e6bf7d7d05e9f035b35250522ec46ccbc3e",
  },
];

/** Latchkey `symmetricEncrypt` outputs, each decrypted by the reference's `symmetricDecrypt`. */
export const OUR_CIPHERTEXTS = [
  {
    key: "better-auth-secret-12345678901234567890",
    data: "hello",
    ciphertext: "8d8e3a8a35d47b853763c9e74671b32a6172789d1caceac40721635525d9e61b714a86782e6aa70c1ad498cf3c",
  },
  {
    key: "ключ",
    data: "ünïcødé ✓ 🔑",
    ciphertext:
      "359d4526feb8fb029863d6774d42030c9b452847bcfcc6f8d558e27acd1325840db2c0e0c54ae3bed5686018c8f201692d0340547be3aa6280e7105e",
  },
];

/** The rotation set the envelope vectors use (reference: keys {2, 1}, current 2, legacySecret). */
export const ROTATION = {
  v2: "secret-v2-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  v1: "secret-v1-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
  legacy: "legacy-secret-cccccccccccccccccccccccc",
};

/** Reference envelope outputs: v2 under {2,1} current 2; v1 under {1} current 1; legacy = bare hex under the legacy secret. Plaintexts: "refresh-token-<name>". */
export const REFERENCE_ENVELOPES = {
  v2: "$ba$2$9313be785ad09eda5adaa6d9fc4410ca02d86b3ad0acd03ed2cba74bf68fb52b06aaa5b790a9205b0001884266d8fc85b9ba5f691df78f6a",
  v1: "$ba$1$00cfed9a9319cb167b6ffe6858cafde739690dc02d2383b03996fb792af3517cbb7bb90a6d7e4fbc9041bd353e98528633ae60c40a43a13c",
  legacy:
    "ed10fcbbe819a9a9439aa5def103f9017869d8e8362e88023e9c76469f9cd5b9c83d962e15f1fc49188cd0168312b2ab7a77e45ff58eef0885706728",
};

/** Latchkey envelope output under the same set (current 2), decrypted by the reference to "refresh-token-v2". */
export const OUR_ENVELOPE =
  "$ba$2$b8c40d25367a4d20dee8d645c53a64c3dd73ba381d475f32a10cc5ce5e63c07d2305ed84ca2950bc1f9c6199c1f38e4cf05e06b91a06f236";

/** better-call `makeSignature(value, secret)`: standard padded base64 HMAC-SHA256. */
export const REFERENCE_COOKIE_SIGNATURES = [
  {
    value: "j8ymsXR5F2WqxmLfP6fFYt0ns9zcFmA9",
    secret: "better-auth-secret-12345678901234567890",
    signature: "RgbrW19w1jA3P/o10nP/MGslckFfeazGiGKmrCq6Z/4=",
  },
  {
    value: "true",
    secret: "better-auth-secret-12345678901234567890",
    signature: "2Q7qxj/11DldXW8be7RmiJCA7bM+Y0L1gL5sny1v/J8=",
  },
  { value: "", secret: "k", signature: "i7mQxAp9YcuXWXqUISUCW+UKyL63RDbjc1uYiTp/ZiA=" },
  { value: "a.b.c", secret: "another secret", signature: "cAYObAvptPIznxzarf+XHtd/Zwh8IYcTgIjvACN/p0E=" },
  { value: "ünï", secret: "ключ", signature: "LFMaeayaG2ykMF05TMjjZJZpgRvGo8/0esuAzF4xUiM=" },
];

/** @better-auth/utils HMAC, base64url without padding (compact `session_data` signer). */
export const REFERENCE_COMPACT_SIGNATURES = [
  {
    secret: "better-auth-secret-12345678901234567890",
    message: '{"a":1}',
    signature: "zrkqyTrO5CLXZYMzA-uCuOhZNP3n7caUBFYpvd3A-mE",
  },
  { secret: "ключ", message: "ünïcødé", signature: "kObtqHRG_YcSDE46AWBcvLsDQXIUML2vVWYkDDh1Vdc" },
];

/** Reference `signJWT(payload, SECRET, 3600)` at FIXED_TIME. */
export const REFERENCE_JWT = {
  payload: { email: "user@example.com", updateTo: null, n: 1 },
  token:
    "eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6InVzZXJAZXhhbXBsZS5jb20iLCJ1cGRhdGVUbyI6bnVsbCwibiI6MSwiaWF0IjoxNzY3MjI1NjAwLCJleHAiOjE3NjcyMjkyMDB9.41SpHshCPtYZeCzRGs-9AU0e2xmmVLtl1DAUN2t__vk",
};

/** Reference `symmetricEncodeJWT(..., 300)` at FIXED_TIME: `session` = ({session:{token:"abc"},updatedAt:1}, SECRET, "better-auth-session"); `rotated` = ({account:1}, {v1 only}, "better-auth-account"). */
export const REFERENCE_JWE = {
  session:
    "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIiwia2lkIjoiMmdmdUstNG56WU9LWlM3NUpRaWxVcGY4Ri1aMGY0cDBFUmRaU1BwT0lIcyJ9..3MctfujUOCy6Mg2H9JMigA.0qiF0iWxBEWGvG5Fkvt2I9iig6wgKoz88WVAxAiFhLV5rqdv2l9_qHbHcl7soUvcEWiicBonvpuZfbGbjkURaaHU0revVxZ-z7u234hsW21g-Pk7_oc2ZvGJ8h_ZEoeEJhYJ6IBnvbSVVJwKCsWE7gSpmhaopiVjNUHAtO0ehko.FRWd2ZEQwwjpi17FJx7W3sY89Lk1E2x9h-CQsULK3wg",
  rotated:
    "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIiwia2lkIjoiT0pOTy1tamxjY3VOQ29WTlVXdmFjUVFiRjZCdXBoeGZIWkhuaURCa2RXayJ9..RfQT-fVfE2XLOpN9wp0KGg.CPyVXZGIF0jzd1juWNUfctsjBkYvkff9MS0o2GVNgm_S7Loq3MApYlPvFspB9ek-FHXFFAAhj8J_EG-SvLvHGFPb4zXz6bROqx2yPFf-PlLCeHyL3LggEXZfeEgCZMbq.syYaepBwgfFriWXor56noI1ClC44qAdO9nfdeUNLZhs",
};

/** Set-Cookie headers from a live reference instance with secret SECRET: after sign-up, and after sign-in with rememberMe: false. */
export const LIVE_SET_COOKIE = {
  signUp: [
    "better-auth.session_token=6nOTOOThoFAdW2jnbcakdnLWHZbhBnAF.99KsPsnDzGXAzrV2%2BCxC5yhiBtDC0dU6LLUICL0dj8w%3D; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax",
    "better-auth.session_data=eyJzZXNzaW9uIjp7InNlc3Npb24iOnsiZXhwaXJlc0F0IjoiMjAyNi0xMS0yOFQwOTo0OTozNS4yMDNaIiwidG9rZW4iOiI2bk9UT09UaG9GQWRXMmpuYmNha2RuTFdIWmJoQm5BRiIsImNyZWF0ZWRBdCI6IjIwMjYtMTEtMjFUMDk6NDk6MzUuMjAzWiIsInVwZGF0ZWRBdCI6IjIwMjYtMTEtMjFUMDk6NDk6MzUuMjAzWiIsImlwQWRkcmVzcyI6IiIsInVzZXJBZ2VudCI6IiIsInVzZXJJZCI6Ilg3QzBMNEhDMHphcUVzcU12YjIxWU1sZ2JXaXFpQVN4IiwiaWQiOiI3bGZ0dEdJTlVWamk5M05WWUFITnFSZ2VJWGJzSjFTQyJ9LCJ1c2VyIjp7Im5hbWUiOiJBIiwiZW1haWwiOiJhQGV4YW1wbGUuY29tIiwiZW1haWxWZXJpZmllZCI6ZmFsc2UsImNyZWF0ZWRBdCI6IjIwMjYtMTEtMjFUMDk6NDk6MzUuMjAxWiIsInVwZGF0ZWRBdCI6IjIwMjYtMTEtMjFUMDk6NDk6MzUuMjAxWiIsImlkIjoiWDdDMEw0SEMwemFxRXNxTXZiMjFZTWxnYldpcWlBU3gifSwidXBkYXRlZEF0IjoxNzk1MjU0NTc1MjA1LCJ2ZXJzaW9uIjoiMSJ9LCJleHBpcmVzQXQiOjE3OTUyNTQ4NzUyMDUsInNpZ25hdHVyZSI6IlBWTmRXa2lLS1oyQkJHVWxNODBxN3Z2V3k4TGstSzVhNm9PdHhtdEtTRUEifQ; Max-Age=300; Path=/; HttpOnly; SameSite=Lax",
  ],
  signInNoRemember: [
    "better-auth.session_token=XQTRqtgndguDL7lhjKPEw6Ha1Gj0aWIr.MzAdUjhNjmDptQ%2Fcm%2FGnKVK0XCkSaIgbeBs1QGcOxRw%3D; Path=/; HttpOnly; SameSite=Lax",
    "better-auth.dont_remember=true.2Q7qxj%2F11DldXW8be7RmiJCA7bM%2BY0L1gL5sny1v%2FJ8%3D; Path=/; HttpOnly; SameSite=Lax",
    "better-auth.session_data=eyJzZXNzaW9uIjp7InNlc3Npb24iOnsiZXhwaXJlc0F0IjoiMjAyNi0xMS0yMlQwOTo0OTozNS4zMzhaIiwidG9rZW4iOiJYUVRScXRnbmRndURMN2xoaktQRXc2SGExR2owYVdJciIsImNyZWF0ZWRBdCI6IjIwMjYtMTEtMjFUMDk6NDk6MzUuMzM4WiIsInVwZGF0ZWRBdCI6IjIwMjYtMTEtMjFUMDk6NDk6MzUuMzM4WiIsImlwQWRkcmVzcyI6IiIsInVzZXJBZ2VudCI6IiIsInVzZXJJZCI6Ilg3QzBMNEhDMHphcUVzcU12YjIxWU1sZ2JXaXFpQVN4IiwiaWQiOiJXV0dmaVNiZTRoN0IwU3A0M2ZNanc2Qm5NZ25uZDhLWCJ9LCJ1c2VyIjp7Im5hbWUiOiJBIiwiZW1haWwiOiJhQGV4YW1wbGUuY29tIiwiZW1haWxWZXJpZmllZCI6ZmFsc2UsImNyZWF0ZWRBdCI6IjIwMjYtMTEtMjFUMDk6NDk6MzUuMjAxWiIsInVwZGF0ZWRBdCI6IjIwMjYtMTEtMjFUMDk6NDk6MzUuMjAxWiIsImlkIjoiWDdDMEw0SEMwemFxRXNxTXZiMjFZTWxnYldpcWlBU3gifSwidXBkYXRlZEF0IjoxNzk1MjU0NTc1MzQ0LCJ2ZXJzaW9uIjoiMSJ9LCJleHBpcmVzQXQiOjE3OTUyNTQ2MzUzNDQsInNpZ25hdHVyZSI6Imp2akpxZHVvUUZiM0FWalJPWW9zRDFjekZRamc0dWhWTV9ES3BteEFuUVkifQ; Path=/; HttpOnly; SameSite=Lax",
  ],
};
