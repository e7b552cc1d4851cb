import { APIError, base64Decode, utf8Decode, type AuthContext, type EndpointContext } from "@latchkey/core";
import type { OAuthClientAuthenticationResult } from "./extension-types.js";
import { extensionStrategy } from "./extensions.js";
import { authMethodOf, clientAllowsGrant, findClient } from "./clients.js";
import { oauthError } from "./oauth-error.js";
import type { ResolvedOAuthOptions } from "./options.js";
import type { OAuthClientRow } from "./schema.js";
import { stripPrefix, verifyClientSecret } from "./token-hash.js";
import { quoted } from "./echo.js";
import { assertedClientId, verifyClientAssertion } from "./client-assertion.js";

/** How a request identified its client (RFC 6749 §2.3). */
export interface PresentedClient {
  /** Empty for an extension assertion sent without `client_id` until the strategy proves one. */
  clientId: string;
  secret?: string | undefined;
  /** A built-in method, or the `token_endpoint_auth_method` of an extension strategy. */
  method: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none" | (string & {});
  /** The `private_key_jwt` assertion and the URL of the endpoint it was sent to (its `aud`). */
  assertion?: { jwt: string; endpoint: string } | undefined;
  /** An extension strategy's verification of the assertion (RFC 7521), run by `authenticateClient`. */
  strategy?: (() => Promise<OAuthClientAuthenticationResult>) | undefined;
  /** What the strategy proved, once it ran. */
  proven?: OAuthClientAuthenticationResult | undefined;
}

/** Lets `presentedClient` hand assertion types it does not know to the extensions' strategies. */
export interface ExtensionAuthScope {
  ctx: EndpointContext;
  options: ResolvedOAuthOptions;
}

interface CredentialFields {
  client_id?: unknown;
  client_secret?: unknown;
  client_assertion?: unknown;
  client_assertion_type?: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64. */
function decodeBasic(header: string): { clientId: string; secret: string } {
  const invalid = () =>
    oauthError("UNAUTHORIZED", "invalid_client", "invalid authorization header format", { "WWW-Authenticate": "Basic" });
  let decoded: string;
  try {
    decoded = utf8Decode(base64Decode(header.replace(/^Basic +/i, "").trim()));
  } catch {
    throw invalid();
  }
  const colon = decoded.indexOf(":");
  if (colon < 1) throw invalid();
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " ")),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " ")),
    };
  } catch {
    throw invalid();
  }
}

/**
 * The client a token-endpoint request names, and how. Spec rule 1 / rule "two methods":
 * a request using more than one authentication method is refused.
 */
export function presentedClient(headers: Headers, body: CredentialFields, endpoint: string, scope?: ExtensionAuthScope): PresentedClient | null {
  const authorization = headers.get("authorization") ?? undefined;
  const secret = text(body.client_secret);
  const assertion = text(body.client_assertion) ?? text(body.client_assertion_type);
  if ((authorization && (secret || assertion)) || (secret && assertion)) {
    throw oauthError("BAD_REQUEST", "invalid_request", "A request must use only one client authentication method");
  }
  if (assertion) {
    const jwt = text(body.client_assertion);
    const type = text(body.client_assertion_type);
    if (!jwt || !type) throw oauthError("BAD_REQUEST", "invalid_client", "client_assertion and client_assertion_type must both be provided");
    const extension = scope ? extensionStrategy(scope.ctx.context, type) : undefined;
    if (extension && scope) {
      const named = text(body.client_id);
      const input = { ctx: scope.ctx, opts: scope.options, assertion: jwt, assertionType: type, clientId: named, expectedAudience: endpoint };
      return { clientId: named ?? "", method: extension.method, assertion: { jwt, endpoint }, strategy: async () => extension.strategy.authenticate(input) };
    }
    const clientId = assertedClientId(jwt, type, text(body.client_id));
    return { clientId, method: "private_key_jwt", assertion: { jwt, endpoint } };
  }
  if (authorization) {
    if (!/^Basic +/i.test(authorization)) {
      const scheme = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)(?=\s|$)/.exec(authorization)?.[1];
      if (!scheme) throw oauthError("BAD_REQUEST", "invalid_request", "Invalid authorization header format");
      throw oauthError("UNAUTHORIZED", "invalid_client", "unsupported authorization scheme", { "WWW-Authenticate": scheme });
    }
    const basic = decodeBasic(authorization);
    return { clientId: basic.clientId, secret: basic.secret, method: "client_secret_basic" };
  }
  const clientId = text(body.client_id);
  if (!clientId) return null;
  return secret ? { clientId, secret, method: "client_secret_post" } : { clientId, method: "none" };
}

/** `invalid_client`: 401 with a Basic challenge when Basic was tried (RFC 6749 §5.2), else 400. */
const invalidClient = (description: string, method: string) =>
  method === "client_secret_basic"
    ? oauthError("UNAUTHORIZED", "invalid_client", description, { "WWW-Authenticate": "Basic" })
    : oauthError("BAD_REQUEST", "invalid_client", description);

/**
 * Runs an extension strategy (RFC 7521 §4.2): the client id it proves, which must be the
 * `client_id` the request named, if any. A strategy failing with anything but an OAuth error is
 * `invalid_client` (its message is not echoed: it may quote the assertion).
 */
async function provenClientId(presented: PresentedClient): Promise<string> {
  let proven: OAuthClientAuthenticationResult;
  try {
    proven = await presented.strategy!();
  } catch (error) {
    if (error instanceof APIError) throw error;
    throw oauthError("BAD_REQUEST", "invalid_client", "invalid client assertion");
  }
  if (typeof proven?.clientId !== "string" || !proven.clientId) throw oauthError("BAD_REQUEST", "invalid_client", "invalid client assertion");
  if (presented.clientId && proven.clientId !== presented.clientId) {
    throw oauthError("BAD_REQUEST", "invalid_client", "client_id does not match the client assertion");
  }
  presented.clientId = proven.clientId;
  presented.proven = proven;
  return proven.clientId;
}

/**
 * Loads the presented client and checks it: enabled, the method it registered, its secret
 * (after the configured prefix), the scopes it may ask for, and the grant. Throws the
 * reference's OAuth errors. Nothing is written, so a failure never spends a code or token.
 */
export async function authenticateClient(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  presented: PresentedClient,
  check: { scopes?: string[] | undefined; grant?: string | undefined } = {},
): Promise<OAuthClientRow> {
  const { method } = presented;
  const client = presented.strategy
    ? await findClient(ctx, await provenClientId(presented))
    : presented.assertion
      ? await verifyClientAssertion(ctx, options, presented.clientId, presented.assertion.jwt, presented.assertion.endpoint)
      : await findClient(ctx, presented.clientId);
  if (!client) throw invalidClient("missing client", method);
  if (client.disabled) throw invalidClient("client is disabled", method);
  const registered = authMethodOf(client);
  if (registered !== method) throw invalidClient(`client registered for ${registered} cannot use ${method}`, method);
  // A client of an extension method was proven by its strategy; the others by secret or keys.
  if (registered !== "none" && registered !== "private_key_jwt" && !presented.strategy) {
    if (!presented.secret) throw invalidClient("client secret must be provided", method);
    if (!client.clientSecret) throw invalidClient("public client, client secret should not be received", method);
    const plain = stripPrefix(presented.secret, options.prefix?.clientSecret);
    if (plain === null) throw oauthError("UNAUTHORIZED", "invalid_client", "invalid client_secret");
    if (!(await verifyClientSecret(options, client.clientSecret, plain, ctx))) throw invalidClient("invalid client_secret", method);
  }
  if (check.scopes && client.scopes) {
    const allowed = new Set(client.scopes);
    const refused = check.scopes.find((scope) => !allowed.has(scope));
    if (refused) throw oauthError("BAD_REQUEST", "invalid_scope", `client does not allow scope ${quoted(refused)}`);
  }
  if (check.grant && !clientAllowsGrant(client, check.grant)) {
    throw oauthError("BAD_REQUEST", "unauthorized_client", `client is not authorized to use grant type ${check.grant}`);
  }
  return client;
}
