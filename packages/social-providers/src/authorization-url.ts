import { isReservedAuthorizationParam } from "@latchkey/core";

/**
 * An authorization request for providers that name the client in a parameter of their own
 * (TikTok `client_key`, WeChat `appid`) and send no `client_id`, PKCE or prompt: the reference
 * builds these by hand. Scopes are comma-joined, as both expect. Extra parameters never
 * replace the reserved ones (spec, Social sign-in 7) nor the client parameter.
 */
export function clientParamAuthorizationURL(input: {
  endpoint: string;
  clientParam: string;
  clientValue: string;
  scopes: string[];
  redirectURI: string;
  state: string;
  additionalParams?: Record<string, string> | undefined;
}): URL {
  const url = new URL(input.endpoint);
  url.searchParams.set("scope", input.scopes.join(","));
  url.searchParams.set("response_type", "code");
  url.searchParams.set(input.clientParam, input.clientValue);
  url.searchParams.set("redirect_uri", input.redirectURI);
  // RFC 6749 §10.12: the state binds the response to this browser's request.
  url.searchParams.set("state", input.state);
  for (const [key, value] of Object.entries(input.additionalParams ?? {})) {
    if (isReservedAuthorizationParam(key) || key === input.clientParam || typeof value !== "string") continue;
    url.searchParams.set(key, value);
  }
  return url;
}
