// What the type-check apps write besides plugin factories: options a user would pass, one
// endpoint call per plugin that has one on both sides, and the reference's further plugins.

/**
 * Options (TypeScript source) a user would pass to a factory in the type-check apps, by factory
 * name; both implementations get the same. A factory not listed gets FACTORY_OPTIONS (plugins.ts)
 * or nothing.
 */
export const TYPECHECK_OPTIONS: Record<string, string> = {
  genericOAuth:
    '{ config: [{ providerId: "example", clientId: "client-id", clientSecret: "client-secret", discoveryUrl: "https://idp.example.com/.well-known/openid-configuration" }] }',
  magicLink: "{ sendMagicLink: async () => {} }",
  emailOTP: "{ sendVerificationOTP: async () => {} }",
  phoneNumber: "{ sendOTP: async () => {} }",
  captcha: '{ provider: "cloudflare-turnstile", secretKey: "secret" }',
  siwe: '{ domain: "example.com", getNonce: async () => "nonce", verifyMessage: async () => true }',
};

/**
 * One `auth.api` call per plugin id, on an endpoint both implementations have under that name.
 * Each app calls the first installed plugin's endpoint in this order (the figure's "one plugin
 * endpoint"); generic OAuth has none in the reference (it signs in through core's routes).
 */
export const ENDPOINT_CALLS: Array<{ id: string; call: string }> = [
  { id: "one-tap", call: 'auth.api.oneTapCallback({ body: { idToken: "id-token" }, headers })' },
  { id: "oauth-proxy", call: 'auth.api.oAuthProxy({ query: { callbackURL: "/dashboard" }, headers })' },
  {
    id: "organization",
    call: 'auth.api.createOrganization({ body: { name: "Acme", slug: "acme" }, headers })',
  },
  { id: "two-factor", call: 'auth.api.enableTwoFactor({ body: { password: "password" }, headers })' },
];

/**
 * The reference's own plugins beyond the Latchkey counterparts, in the order the reference-only
 * rows add them, to reach the 21 plugins of the issue's figure (~202k instantiations). All come
 * from `better-auth/plugins`; ids are the reference's plugin ids, so one that gains a Latchkey
 * counterpart is not added twice.
 */
export const REFERENCE_EXTRA_PLUGINS: Array<{ id: string; factory: string }> = [
  { id: "organization", factory: "organization" },
  { id: "admin", factory: "admin" },
  { id: "two-factor", factory: "twoFactor" },
  { id: "username", factory: "username" },
  { id: "anonymous", factory: "anonymous" },
  { id: "magic-link", factory: "magicLink" },
  { id: "email-otp", factory: "emailOTP" },
  { id: "phone-number", factory: "phoneNumber" },
  { id: "multi-session", factory: "multiSession" },
  { id: "jwt", factory: "jwt" },
  { id: "open-api", factory: "openAPI" },
  { id: "one-time-token", factory: "oneTimeToken" },
  { id: "device-authorization", factory: "deviceAuthorization" },
  { id: "have-i-been-pwned", factory: "haveIBeenPwned" },
  { id: "captcha", factory: "captcha" },
  { id: "siwe", factory: "siwe" },
];

/** The issue's figure: the reference with 21 plugins costs about 202k instantiations and 1.6 s. */
export const ISSUE_REFERENCE = { plugins: 21, instantiations: 202_000, checkSeconds: 1.6 } as const;

/** Social sign-in providers the "every plugin package" apps configure (client id and secret only). */
export const SOCIAL_PROVIDERS = ["github", "google"] as const;
