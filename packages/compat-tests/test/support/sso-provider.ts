import { CLIENT_ID, CLIENT_SECRET } from "@latchkey/test-support";
import { jsonPost, type Handler } from "./instances.ts";

/** An OIDC configuration that needs no network: endpoints given, discovery skipped (client id ending 1234). */
export const OFFLINE_OIDC_CONFIG = {
  clientId: "client-id-1234",
  clientSecret: "the-client-secret",
  skipDiscovery: true,
  authorizationEndpoint: "https://idp.example.com/authorize",
  tokenEndpoint: "https://idp.example.com/token",
  jwksEndpoint: "https://idp.example.com/jwks",
};

/** The body of `POST /sso/register` a test sends; the defaults fill the rest. */
export interface ProviderRegistration {
  providerId: string;
  /** The IdP's issuer. @default "https://idp.example.com" (the offline configuration's) */
  issuer?: string;
  /** @default `<providerId>.example.com` */
  domain?: string;
  /** @default the test IdP's client (`CLIENT_ID`, `CLIENT_SECRET`), endpoints discovered */
  oidcConfig?: Record<string, unknown>;
  /** More body fields: `organizationId`, additional fields. */
  [field: string]: unknown;
}

/** The full registration body: `registration` over the defaults. */
export function providerBody<R extends ProviderRegistration>(
  registration: R,
): { issuer: string; domain: string; oidcConfig: Record<string, unknown> } & R {
  return {
    issuer: "https://idp.example.com",
    domain: `${registration.providerId}.example.com`,
    oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    ...registration,
  };
}

/**
 * `POST /sso/register` on one side as the signed-in `owner` (from `origin` when the side serves
 * a live origin): answers the JSON the side answered, and throws with its status and body
 * unless the registration succeeded.
 */
export async function registerProvider(
  side: Handler,
  owner: { cookie: string },
  registration: ProviderRegistration,
  origin?: string,
): Promise<Record<string, unknown>> {
  const headers = { cookie: owner.cookie, ...(origin ? { origin } : {}) };
  const response = await side(jsonPost("/sso/register", providerBody(registration), headers));
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`register ${registration.providerId}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}
