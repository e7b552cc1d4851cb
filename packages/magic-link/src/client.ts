// Browser-safe entry (`@latchkey/magic-link/client`): the routes as `@latchkey/client`
// methods. Type-only imports, so no server code reaches a bundle.
import type { Call, ClientPlugin, ClientResult, RequestOptions } from "@latchkey/client";

/** The body of `signIn.magicLink`. */
export interface MagicLinkSignInBody {
  email: string;
  name?: string;
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
  metadata?: Record<string, unknown>;
}

/** The query of `magicLink.verify`. */
export interface MagicLinkVerifyQuery {
  token: string;
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
}

/** What `magicLink.verify` answers when no `callbackURL` is given. */
export interface MagicLinkVerified {
  token: string;
  user: { id: string; email: string; name: string; emailVerified: boolean } & Record<string, unknown>;
  session: { id: string; token: string; userId: string; expiresAt: string } & Record<string, unknown>;
}

/** The methods the client gains, under the reference client's names. */
export interface MagicLinkClientMethods {
  signIn: {
    /** `POST /sign-in/magic-link`: mails a sign-in link. */
    magicLink(body: MagicLinkSignInBody, options?: RequestOptions): Promise<ClientResult<{ status: boolean }>>;
  };
  magicLink: {
    /** `GET /magic-link/verify`: redeems a link's token (a redirect when `callbackURL` is given). */
    verify(args: { query: MagicLinkVerifyQuery }, options?: RequestOptions): Promise<ClientResult<MagicLinkVerified>>;
  };
}

/**
 * The client plugin for `magicLink()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [magicLinkClient()] });
 * await client.signIn.magicLink({ email: "ada@example.com", callbackURL: "/dashboard" });
 */
export const magicLinkClient = (): ClientPlugin<MagicLinkClientMethods> & { id: "magic-link" } => ({
  id: "magic-link",
  methods: (call: Call) => ({
    signIn: {
      magicLink: (body, options) => call<{ status: boolean }>("/sign-in/magic-link", { method: "POST", body, ...options }),
    },
    magicLink: {
      verify: ({ query }, options) =>
        call<MagicLinkVerified>("/magic-link/verify", { method: "GET", query: { ...query }, ...options }),
    },
  }),
});
