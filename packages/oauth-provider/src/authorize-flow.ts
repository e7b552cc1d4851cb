import { getSessionFromRequest, type EndpointContext } from "@latchkey/core";
import { issueAuthorizationCode } from "./authorization-code.js";
import {
  parseAuthorizationRequest,
  promptsOf,
  requestToParams,
  resourcesOf,
  type AuthorizationRequest,
} from "./authorization-request.js";
import { essentialAcrUnmet, isValidClaimsRequest, requestedUserInfoClaims } from "./claims-request.js";
import { clientAllowsGrant, findClient, pkceRequirement } from "./clients.js";
import { errorPageURL, errorRedirectURL, redirectTo } from "./interaction.js";
import { issuerOf } from "./issuer.js";
import { resourceRefusal } from "./resource-policy.js";
import type { ResolvedOAuthOptions } from "./options.js";
import { matchRedirectUri } from "./redirect-uri.js";
import { resolveRequestUri } from "./request-uri.js";
import type { OAuthConsentRow } from "./schema.js";
import { signQuery } from "./signed-query.js";
import { quoted } from "./echo.js";
import { consentReferenceId, interactionStep, type AuthorizeSettings } from "./interaction-steps.js";

type Redirect = { redirect: true; url: string };

/** Where a failed request goes: the client's URI once client and URI check out, else the error page. */
async function failEarly(ctx: EndpointContext, raw: Record<string, unknown>, error: string, description: string): Promise<Redirect> {
  const clientId = typeof raw.client_id === "string" ? raw.client_id : undefined;
  const redirectUri = typeof raw.redirect_uri === "string" ? raw.redirect_uri : undefined;
  const client = clientId ? await findClient(ctx.context, clientId) : null;
  if (client && !client.disabled && redirectUri && matchRedirectUri(client.redirectUris, redirectUri)) {
    const state = typeof raw.state === "string" ? raw.state : undefined;
    return redirectTo(ctx, errorRedirectURL(redirectUri, error, description, state, issuerOf(ctx.context)));
  }
  return redirectTo(ctx, errorPageURL(ctx, error, description));
}

/** The login or consent page with the signed request (the page hands it back as `oauth_query`). */
async function interaction(ctx: EndpointContext, options: ResolvedOAuthOptions, page: string, request: AuthorizationRequest, postLoginClearedFor?: string): Promise<Redirect> {
  return redirectTo(ctx, `${page}?${await signQuery(requestToParams(request), ctx.context.secret, options.codeExpiresIn, postLoginClearedFor)}`);
}

/**
 * RFC 6749 §4.1.1 / OIDC Core §3.1.2: checks an authorization request in the reference's
 * order and answers with a redirect: to the error page while the client or redirect URI is
 * not established, to the client's URI with an error after that (with `state` and RFC 9207
 * `iss`), to the login or consent page, or to the client's URI with a fresh code.
 */
export async function runAuthorize(
  ctx: EndpointContext,
  options: ResolvedOAuthOptions,
  raw: Record<string, unknown>,
  settings: AuthorizeSettings = {},
): Promise<Redirect> {
  if (raw.request !== undefined && raw.request_uri !== undefined) {
    return failEarly(ctx, raw, "invalid_request", "request and request_uri cannot be used together");
  }
  if (raw.request !== undefined) return failEarly(ctx, raw, "request_not_supported", "request object not supported");
  if (raw.request_uri !== undefined) {
    const resolved = await resolveRequestUri(ctx, options, raw);
    if ("error" in resolved) return failEarly(ctx, raw, resolved.error, resolved.description);
    raw = resolved.params;
  }
  const parsed = parseAuthorizationRequest(raw);
  if ("error" in parsed) return failEarly(ctx, raw, parsed.error, parsed.description);
  const request = parsed;
  if (!request.response_type) return failEarly(ctx, raw, "invalid_request", "response_type is required");
  const prompts = promptsOf(request);
  if (prompts.has("select_account") && !options.selectAccount?.page) {
    return redirectTo(ctx, errorPageURL(ctx, "unsupported_prompt_select_account", "unsupported prompt type"));
  }
  const client = await findClient(ctx.context, request.client_id!);
  if (!client) return redirectTo(ctx, errorPageURL(ctx, "invalid_client", "client_id is required"));
  if (client.disabled) return redirectTo(ctx, errorPageURL(ctx, "client_disabled", "client is disabled"));
  if (!clientAllowsGrant(client, "authorization_code")) {
    return redirectTo(ctx, errorPageURL(ctx, "unauthorized_client", "client is not authorized to use the authorization_code grant"));
  }
  if (!request.redirect_uri || !matchRedirectUri(client.redirectUris, request.redirect_uri)) {
    return redirectTo(ctx, errorPageURL(ctx, "invalid_redirect", "invalid redirect uri"));
  }
  // From here the redirect URI is the client's own: errors go back to it (RFC 6749 §4.1.2.1).
  const iss = issuerOf(ctx.context);
  const back = (error: string, description: string) =>
    redirectTo(ctx, errorRedirectURL(request.redirect_uri!, error, description, request.state, iss));
  let scopes = request.scope?.split(" ").filter(Boolean);
  if (scopes) {
    const valid = new Set(client.scopes ?? options.scopes);
    const invalid = scopes.filter((scope) => !valid.has(scope));
    if (invalid.length) return back("invalid_scope", `The following scopes are invalid: ${invalid.map(quoted).join(", ")}`);
  } else {
    scopes = client.scopes ?? options.scopes;
    request.scope = scopes.join(" ");
  }
  const openid = scopes.includes("openid");
  if (request.claims !== undefined && !openid) return back("invalid_request", "openid scope must be requested when using the claims parameter");
  if (openid && !isValidClaimsRequest(request.claims)) return back("invalid_request", "claims must be a valid Claims request object");
  if (openid && essentialAcrUnmet(request.claims)) return back("access_denied", "essential acr requirement cannot be met");
  const claims = requestedUserInfoClaims(request.claims, options.advertisedMetadata?.claims_supported ?? options.claims);
  const resources = resourcesOf(request.resource) ?? [];
  // RFC 8707 §2: configured, enabled resources (linked to the client when enforced); the token
  // request resolves the policy again, so a resource disabled in between issues nothing.
  const refused = await resourceRefusal(ctx.context, options, { resources, clientId: client.clientId, scopes });
  if (refused) return back(refused.error, refused.description);
  const pkce = pkceRequirement(client, scopes, request.nonce);
  if (pkce && (!request.code_challenge || !request.code_challenge_method)) return back("invalid_request", pkce);
  if ((request.code_challenge || request.code_challenge_method) && !(request.code_challenge && request.code_challenge_method)) {
    return back("invalid_request", "code_challenge and code_challenge_method must both be provided");
  }

  const session = await getSessionFromRequest(ctx);
  const fresh = session && request.max_age !== undefined
    ? request.max_age > 0 && Date.now() - new Date(session.session.createdAt).getTime() <= request.max_age * 1000
    : false;
  if (!session || (request.max_age !== undefined && !fresh) || prompts.has("login") || prompts.has("create")) {
    // OIDC Core §3.1.2.6: prompt=none never shows a page.
    if (prompts.has("none")) return back("login_required", "authentication required");
    return interaction(ctx, options, prompts.has("create") ? (options.signup?.page ?? options.loginPage) : options.loginPage, request);
  }
  if (fresh) delete request.max_age;
  const step = await interactionStep(ctx, options, session, scopes, prompts, settings);
  if (step) return "error" in step ? back(step.error, step.description) : interaction(ctx, options, step.page, request);
  // The consent page's answer resumes with the post-login step done for this session.
  const postLoginDone = options.postLogin ? session.session.id : undefined;
  if (prompts.has("consent")) return interaction(ctx, options, options.consentPage, request, postLoginDone);

  const grant = {
    query: { ...request, client_id: client.clientId } as Record<string, unknown> & { client_id: string },
    userId: session.user.id,
    sessionId: session.session.id,
    authTime: new Date(session.session.createdAt).getTime(),
    resource: resources,
    referenceId: await consentReferenceId(options, session, scopes),
  };
  if (!client.skipConsent) {
    const consent = await ctx.context.adapter.findOne<OAuthConsentRow & Record<string, unknown>>({
      model: "oauthConsent",
      where: [
        { field: "clientId", value: client.clientId },
        { field: "userId", value: session.user.id },
      ],
    });
    const covered =
      consent &&
      scopes.every((scope) => consent.scopes.includes(scope)) &&
      claims.every((claim) => (consent.requestedUserInfoClaims ?? []).includes(claim)) &&
      resources.every((resource) => (consent.resources ?? []).includes(resource));
    if (!covered) {
      if (prompts.has("none")) return back("consent_required", "End-User consent is required");
      return interaction(ctx, options, options.consentPage, request, postLoginDone);
    }
  }
  const code = await issueAuthorizationCode(ctx.context, options, grant);
  const target = new URL(request.redirect_uri);
  target.searchParams.set("code", code);
  if (request.state) target.searchParams.set("state", request.state);
  target.searchParams.set("iss", iss);
  return redirectTo(ctx, target.toString());
}
