import { serviceKey, type AuthContext, type EndpointContext, type User } from "@latchkey/core";
import { authenticateClient, presentedClient } from "./client-auth.js";
import { findClient } from "./clients.js";
import { tokenBinding } from "./dpop-binding.js";
import { quoted } from "./echo.js";
import { issueTokens } from "./issue-tokens.js";
import { oauthError } from "./oauth-error.js";
import { extensionsOf } from "./extensions.js";
import { getOAuthProviderApi } from "./provider-api.js";
import { resolveResourcePolicy } from "./resource-policy.js";
import type { GrantType, ResolvedOAuthOptions } from "./options.js";
import type { OAuthClientRow } from "./schema.js";

/** Token issuance as an extension grant sees it: the user and client are the grant's, the rest is the provider's. */
export interface OAuthIssueInput {
  client: OAuthClientRow;
  scopes: string[];
  user: User;
  resources?: string[] | undefined;
  /** When the user authenticated (the ID token's `auth_time`, OIDC Core §2). */
  authTime?: Date | undefined;
  /** The DPoP key the tokens are bound to, from `dpopBinding` (RFC 9449 §5); Bearer without it. */
  confirmation?: { jkt: string } | undefined;
}

/**
 * What `oauthProvider()` offers other plugins (published as the `OAUTH_PROVIDER_API` service):
 * its client authentication (every registered method, DPoP aside) and its token issuance.
 */
export interface OAuthProviderService {
  /**
   * Authenticates the client of a request sent to `endpoint` (Basic, `client_secret_post`,
   * `private_key_jwt`, or `client_id` alone for public clients) and checks the scopes it may
   * ask for and the grant it may use. A client registered without scopes may ask only for the
   * provider's `scopes`. Throws the provider's OAuth errors; writes nothing.
   */
  authenticateClient(
    context: AuthContext,
    request: { headers: Headers; body: Record<string, unknown>; endpoint: string },
    check: { scopes?: string[] | undefined; grant: string },
  ): Promise<OAuthClientRow>;
  /**
   * RFC 9449 at the token endpoint: verifies the request's `DPoP` proof (method POST, `htu` one of `urls`)
   * and answers the key to bind the tokens to; none without a proof, unless the client
   * registered `dpop_bound_access_tokens` (then `invalid_dpop_proof`). Call it before spending a
   * grant, so a bad proof leaves the grant to its holder.
   */
  dpopBinding(
    context: AuthContext,
    request: { headers: Headers; urls: string[] },
    client: OAuthClientRow,
    required?: { resourceRequires?: boolean | undefined },
  ): Promise<{ jkt: string } | undefined>;
  /**
   * RFC 8707 §2: checks the resources a grant asks for as the authorization-code flow does
   * (configured, enabled, linked to the client) and answers the scopes left after each
   * resource's `allowedScopes` and whether a resource requires DPoP. Throws `invalid_target` /
   * `invalid_scope`; writes nothing.
   */
  resourcePolicy(
    context: AuthContext,
    request: { resources: string[] | undefined; clientId: string; scopes: string[] },
  ): Promise<{ scopes: string[]; dpopRequired: boolean }>;
  /** The registered client `clientId`, or null (enabled or not). */
  findClient(context: AuthContext, clientId: string): Promise<OAuthClientRow | null>;
  /**
   * Issues the provider's token set for `grantType` (access token, refresh token, ID token by its
   * rules); with `resources`, their policy applies (audience, narrowed scopes, TTLs, signing pins).
   */
  issueTokens(context: AuthContext, grantType: string, input: OAuthIssueInput): Promise<Record<string, unknown>>;
}

/** The service key of `OAuthProviderService`. */
export const OAUTH_PROVIDER_API = serviceKey<OAuthProviderService>("oauth-provider.api");

/**
 * A grant type another plugin adds to `/oauth2/token` (Latchkey's own shape; the reference's is
 * `OAuthProviderExtension.grants`, served through this too): published as a service under
 * `oauthGrantExtensionKey(grantType)`. The token endpoint calls `handle` for that
 * `grant_type` (no-store headers and the error shape are the endpoint's); discovery lists the
 * grant type and merges `metadata`.
 */
export interface OAuthGrantExtension {
  grantType: string;
  /** Answers one `/oauth2/token` request; `ctx.body` is the form as parsed there (a repeated member is an array). */
  handle(ctx: EndpointContext): Promise<Record<string, unknown>>;
  metadata?(context: AuthContext): Record<string, unknown>;
}

const PREFIX = "oauth-provider.grant:";

/** The service key under which a plugin publishes the handler of `grantType`. */
export const oauthGrantExtensionKey = (grantType: string) => serviceKey<OAuthGrantExtension>(`${PREFIX}${grantType}`);

/**
 * Every extension grant: those of `extensions` / `extendOAuthProvider()` (the reference's
 * handler shape, called with a `provider` bound to the grant), then those plugins published
 * as services; a grant type published both ways is answered by the first.
 */
export function grantExtensions(context: Pick<AuthContext, "services" | "plugins">): OAuthGrantExtension[] {
  const registered = extensionsOf(context).flatMap((extension) =>
    Object.entries(extension.grants ?? {}).map(([grantType, handler]): OAuthGrantExtension => ({
      grantType,
      handle: async (ctx) => {
        const opts = context.plugins.find((plugin) => plugin.id === "oauth-provider")!.options as ResolvedOAuthOptions;
        return (await handler({ ctx, opts, grantType, provider: getOAuthProviderApi(ctx, opts, grantType) })) as Record<string, unknown>;
      },
    })),
  );
  const published = [...context.services.entries()].filter(([id]) => id.startsWith(PREFIX)).map(([, value]) => value as OAuthGrantExtension);
  return [...registered, ...published.filter((extension) => !registered.some((own) => own.grantType === extension.grantType))];
}

/** The extension grant of `grantType`, if one was registered or published. */
export function grantExtension(context: Pick<AuthContext, "services" | "plugins">, grantType: string): OAuthGrantExtension | undefined {
  return grantExtensions(context).find((extension) => extension.grantType === grantType);
}

/** The `OAuthProviderService` over one provider's options. */
export function providerApi(options: ResolvedOAuthOptions): OAuthProviderService {
  return {
    async authenticateClient(context, request, check) {
      const presented = presentedClient(request.headers, request.body, request.endpoint);
      if (!presented) throw oauthError("BAD_REQUEST", "invalid_request", "client_id is required");
      const client = await authenticateClient(context, options, presented, check);
      const refused = client.scopes ? undefined : check.scopes?.find((scope) => !options.scopes.includes(scope));
      if (refused) throw oauthError("BAD_REQUEST", "invalid_scope", `scope ${quoted(refused)} is not supported`);
      return client;
    },
    findClient: (context, clientId) => findClient(context, clientId),
    dpopBinding: (context, request, client, required) =>
      tokenBinding(context, options, { proof: request.headers.get("dpop") ?? undefined, urls: request.urls }, { client, resourceRequires: required?.resourceRequires }),
    resourcePolicy: async (context, request) => {
      const policy = await resolveResourcePolicy(context, options.resourceStore, request);
      return { scopes: policy.scopes, dpopRequired: policy.dpopRequired };
    },
    async issueTokens(context, grantType, input) {
      const resources = input.resources?.length ? input.resources : undefined;
      const policy = resources
        ? await resolveResourcePolicy(context, options.resourceStore, { resources, clientId: input.client.clientId, scopes: input.scopes })
        : undefined;
      return issueTokens(context, options, {
        grantType: grantType as GrantType,
        client: input.client,
        scopes: policy?.scopes ?? input.scopes,
        user: input.user,
        resources,
        policy,
        authTime: input.authTime ?? null,
        confirmation: input.confirmation,
      });
    },
  };
}
