/** Options of `oAuthProxy()`, with the reference's names and defaults. */
export interface OAuthProxyOptions {
  /**
   * The deployment whose callback URL is registered at the providers. Sign-ins started
   * elsewhere send the provider there, and production forwards the result back.
   * @default `BETTER_AUTH_URL`, else this instance's base URL
   */
  productionURL?: string;
  /**
   * This deployment's own URL, where production sends the browser back. Set it when the
   * request's host cannot be trusted to say so.
   * @default the request URL when its origin is trusted, else the platform URL (`VERCEL_URL`, ...), else the base URL
   */
  currentURL?: string;
  /**
   * Seconds an encrypted profile stays valid between production and this deployment.
   * @default 60
   */
  maxAge?: number;
  /**
   * Key for the state package and the profile payload; both deployments must share it.
   * @default the auth secret
   */
  secret?: string;
}

/** Options after defaults. */
export interface ResolvedOAuthProxyOptions {
  productionURL: string | undefined;
  currentURL: string | undefined;
  maxAge: number;
  secret: string | undefined;
}

function isAbsoluteURL(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** Applies the defaults once, at `oAuthProxy()`; a bad `maxAge` or URL is a configuration error, not a request's. */
export function resolveOAuthProxyOptions(options: OAuthProxyOptions = {}): ResolvedOAuthProxyOptions {
  const maxAge = options.maxAge ?? 60;
  if (!Number.isFinite(maxAge) || maxAge < 0) {
    throw new TypeError("oAuthProxy: `maxAge` must be a non-negative number of seconds.");
  }
  for (const name of ["productionURL", "currentURL"] as const) {
    const value = options[name];
    if (value !== undefined && !isAbsoluteURL(value)) {
      throw new TypeError(`oAuthProxy: \`${name}\` must be an absolute URL.`);
    }
  }
  return {
    productionURL: options.productionURL,
    currentURL: options.currentURL,
    maxAge,
    secret: options.secret,
  };
}
