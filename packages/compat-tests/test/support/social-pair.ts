import { genericOAuth } from "better-auth/plugins";
import type { BetterAuthOptions } from "better-auth";
import { oidcProvider, type LatchkeyOptions } from "@latchkey/core";
import { genericOAuth as latchkeyGenericOAuth } from "@latchkey/generic-oauth";
import { Browser, CLIENT_ID, CLIENT_SECRET, startIdP, type TestIdP } from "@latchkey/test-support";
import { BASE_URL, createPair, url, type Handler, type Pair } from "./instances.ts";

/** The redirect URI both sides send: same base URL, same provider id. */
export const CALLBACK_URL = url("/callback/idp");

/** A pair with one real OpenID provider, configured on both sides as provider `idp`. */
export interface SocialPair extends Pair {
  idp: TestIdP;
  /** A browser on the app origin whose requests go to `side` (switch mid-flow with `to`). */
  browser(side?: Side): SwitchingBrowser;
  close(): void;
}

export type Side = "reference" | "latchkey";

/** The two ways Latchkey is configured for the IdP; every social compat test runs with each. */
export const LATCHKEY_PROVIDERS = ["oidcProvider", "genericOAuth"] as const;
export type LatchkeyProvider = (typeof LATCHKEY_PROVIDERS)[number];

/** A {@link Browser} whose app handler can be switched between the two implementations. */
export interface SwitchingBrowser extends Browser {
  /** Sends the next app requests to this side (the cookies stay: one browser, one host). */
  to(side: Side): SwitchingBrowser;
}

export interface SocialPairOptions {
  /** Extra options for the reference, laid over the provider config (plugins are added to its). */
  reference?: Partial<BetterAuthOptions>;
  /** Extra options for Latchkey, laid over the provider config (plugins are added to its). */
  latchkey?: Partial<LatchkeyOptions>;
  /**
   * How Latchkey configures the IdP: core's `oidcProvider`, or `@latchkey/generic-oauth` with
   * the reference's own `genericOAuth` config. @default "oidcProvider"
   */
  latchkeyProvider?: LatchkeyProvider;
}

/** The accounts the social tests sign in with. */
function seedAccounts(idp: TestIdP): void {
  idp.accounts.set("alice-sub", {
    email: "alice@example.com",
    email_verified: true,
    name: "Alice",
    picture: "https://img.test/a.png",
  });
  idp.accounts.set("bob-sub", { email: "bob@example.com", email_verified: true, name: "Bob" });
  idp.accounts.set("carol-sub", { email: "carol@example.com", email_verified: true, name: "Carol" });
  idp.accounts.set("dave-sub", { email: "dave@example.com", email_verified: true, name: "Dave" });
  idp.accounts.set("erin-sub", { email: "erin@example.com", email_verified: true, name: "Erin" });
  idp.accounts.set("frank-sub", { email: "frank@example.com", email_verified: true, name: "Frank" });
  idp.accounts.set("noemail-sub", { name: "No Email" });
}

/**
 * Both implementations on one database with the IdP as provider `idp`: the reference through
 * its `genericOAuth` plugin (discovery, PKCE, its default `client_secret_post`), Latchkey
 * through core's `oidcProvider` or its own `genericOAuth` with the same client. The IdP client is registered for
 * `client_secret_post`, the reference's default, and Latchkey is told to send that too: one
 * authorization code must be redeemable by either side.
 */
export async function createSocialPair(options: SocialPairOptions = {}): Promise<SocialPair> {
  const idp = await startIdP([CALLBACK_URL], { tokenEndpointAuthMethod: "client_secret_post" });
  seedAccounts(idp);
  const config = {
    providerId: "idp",
    discoveryUrl: `${idp.issuer}/.well-known/openid-configuration`,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    pkce: true,
    // The reference asks only `openid` for a discovery provider unless told more;
    // these give Latchkey's default request, `openid profile email`.
    scopes: ["profile", "email"],
  };
  const latchkeyIdP: Partial<LatchkeyOptions> =
    options.latchkeyProvider === "genericOAuth"
      ? { plugins: [latchkeyGenericOAuth({ config: [config] })] }
      : {
          socialProviders: {
            idp: oidcProvider({
              id: "idp",
              issuer: idp.issuer,
              clientId: CLIENT_ID,
              clientSecret: CLIENT_SECRET,
              tokenEndpointAuth: { method: "client_secret_post" },
            }),
          },
        };
  // Extra plugins in `options` join the provider's plugin instead of replacing it.
  const pair = await createPair({
    reference: {
      ...options.reference,
      plugins: [genericOAuth({ config: [config] }), ...(options.reference?.plugins ?? [])],
    },
    latchkey: {
      ...latchkeyIdP,
      ...options.latchkey,
      plugins: [...(latchkeyIdP.plugins ?? []), ...(options.latchkey?.plugins ?? [])],
    },
  });
  const browser = (side: Side = "reference"): SwitchingBrowser => {
    let target: Handler = pair[side];
    const b = new Browser(BASE_URL, (request) => target(request)) as SwitchingBrowser;
    b.to = (next) => {
      target = pair[next];
      return b;
    };
    return b;
  };
  return {
    ...pair,
    idp,
    browser,
    close() {
      pair.close();
      void idp.close();
    },
  };
}

/** The JSON body and response of `POST /sign-in/social` for provider `idp` in `browser`. */
export async function startSocial(
  browser: Browser,
  body: Record<string, unknown> = {},
): Promise<{ response: Response; body: { url: string; redirect: boolean } }> {
  const response = await browser.post(url("/sign-in/social"), {
    provider: "idp",
    callbackURL: "/dashboard",
    ...body,
  });
  if (response.status !== 200) throw new Error(`sign-in/social: ${response.status} ${await response.text()}`);
  return { response, body: (await response.clone().json()) as { url: string; redirect: boolean } };
}

/** The IdP leg: follows the authorization URL until the IdP redirects back to the app's callback (not sent). */
export async function throughIdP(
  idp: TestIdP,
  browser: Browser,
  sub: string,
  authorizeURL: string,
): Promise<URL> {
  idp.login(sub);
  const { location } = await browser.follow(authorizeURL, {
    stopAt: (target) => target.pathname.endsWith("/callback/idp"),
  });
  return new URL(location);
}

/** The session the browser holds on `handler`'s side, or null. */
export async function sessionOn(
  browser: Browser,
): Promise<{ user: { id: string; email: string; name: string }; session: { token: string } } | null> {
  const res = await browser.send(url("/get-session"));
  return (await res.json()) as {
    user: { id: string; email: string; name: string };
    session: { token: string };
  } | null;
}
