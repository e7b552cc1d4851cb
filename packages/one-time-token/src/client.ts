// Browser-safe entry (`@latchkey/one-time-token/client`): the routes as `@latchkey/client`
// methods. Type-only imports, so no server code reaches a bundle.
import type { Call, ClientPlugin, ClientResult } from "@latchkey/client";

/** A session and its user as `/one-time-token/verify` answers them (dates as JSON strings). */
export interface VerifiedSession {
  session: { id: string; token: string; userId: string; expiresAt: string } & Record<string, unknown>;
  user: { id: string; email: string; name: string } & Record<string, unknown>;
}

/** The methods the client gains, under the reference client's names (`authClient.oneTimeToken.*`). */
export interface OneTimeTokenClientMethods {
  oneTimeToken: {
    /** `GET /one-time-token/generate`: a single-use token for the current session. */
    generate(): Promise<ClientResult<{ token: string }>>;
    /** `POST /one-time-token/verify`: spends a token and signs in to its session. */
    verify(body: { token: string }): Promise<ClientResult<VerifiedSession>>;
  };
}

/**
 * The client plugin for `oneTimeToken()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [oneTimeTokenClient()] });
 * const { data } = await client.oneTimeToken.generate();
 */
export const oneTimeTokenClient = (): ClientPlugin<OneTimeTokenClientMethods> & { id: "one-time-token" } => ({
  id: "one-time-token",
  methods: (call: Call) => ({
    oneTimeToken: {
      generate: () => call<{ token: string }>("/one-time-token/generate", { method: "GET" }),
      verify: (body) => call<VerifiedSession>("/one-time-token/verify", { method: "POST", body }),
    },
  }),
});
