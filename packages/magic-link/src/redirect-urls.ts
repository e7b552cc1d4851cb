import { assertTrustedCallbackURL, fail, type EndpointContext } from "@latchkey/core";

/** The three places a link may send the browser, resolved against the base URL. */
export interface VerifyTargets {
  callbackURL: string;
  newUserCallbackURL: string;
  errorCallbackURL: string;
}

/**
 * Undoes the extra percent-encoding the reference applies to these parameters. A value that
 * does not decode is kept as sent: the reference's `decodeURIComponent` throws there and
 * answers 500 (DIVERGENCES.md row 80).
 */
function decoded(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Checks each given callback URL against the trusted origins (a relative path is fine) and
 * resolves them; 403 `INVALID_CALLBACK_URL` for any untrusted one, as the reference's
 * per-parameter origin checks answer for all three.
 */
export async function verifyTargets(
  ctx: EndpointContext,
  query: { callbackURL?: string | undefined; newUserCallbackURL?: string | undefined; errorCallbackURL?: string | undefined },
): Promise<VerifyTargets> {
  const callback = decoded(query.callbackURL);
  const newUser = decoded(query.newUserCallbackURL);
  const error = decoded(query.errorCallbackURL);
  for (const url of [callback, newUser, error]) await assertTrustedCallbackURL(ctx, url);
  const base = ctx.context.baseURL;
  const callbackURL = resolve(callback || "/", base);
  return {
    callbackURL,
    newUserCallbackURL: newUser ? resolve(newUser, base) : callbackURL,
    errorCallbackURL: error ? resolve(error, base) : callbackURL,
  };
}

/** An absolute URL; a value that is no URL at all is refused like an untrusted one (row 80). */
function resolve(url: string, base: string): string {
  try {
    return new URL(url, base).toString();
  } catch {
    throw fail("FORBIDDEN", "INVALID_CALLBACK_URL");
  }
}
