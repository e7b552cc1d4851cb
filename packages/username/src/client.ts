// Browser-safe entry (`@latchkey/username/client`): the routes as `@latchkey/client` methods.
// Type-only imports, so no server code reaches a bundle.
import type { Call, ClientPlugin, ClientResult } from "@latchkey/client";

/** What `/sign-in/username` answers. */
export interface UsernameSignIn {
  redirect: boolean;
  token: string;
  url?: string;
  user: { id: string; email: string; name: string; username?: string | null; displayUsername?: string | null } & Record<string, unknown>;
}

/** The methods the client gains, under the reference client's names. */
export interface UsernameClientMethods {
  signIn: {
    /** `POST /sign-in/username`. */
    username(body: { username: string; password: string; rememberMe?: boolean; callbackURL?: string }): Promise<ClientResult<UsernameSignIn>>;
  };
  /** `POST /is-username-available`. */
  isUsernameAvailable(body: { username: string }): Promise<ClientResult<{ available: boolean }>>;
}

/**
 * The client plugin for `username()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [usernameClient()] });
 * await client.signIn.username({ username: "ada", password });
 */
export const usernameClient = (): ClientPlugin<UsernameClientMethods> & { id: "username" } => ({
  id: "username",
  methods: (call: Call) => ({
    signIn: { username: (body) => call<UsernameSignIn>("/sign-in/username", { method: "POST", body }) },
    isUsernameAvailable: (body) => call<{ available: boolean }>("/is-username-available", { method: "POST", body }),
  }),
});
