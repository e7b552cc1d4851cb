// Browser-safe entry (`@latchkey/anonymous/client`): the routes as `@latchkey/client` methods.
// Type-only imports, so no server code reaches a bundle.
import type { Call, ClientPlugin, ClientResult } from "@latchkey/client";

/** The user the sign-in answers (dates as JSON strings). */
export interface AnonymousUser extends Record<string, unknown> {
  id: string;
  email: string;
  name: string;
  isAnonymous: boolean;
}

/** The methods the client gains, under the reference client's names. */
export interface AnonymousClientMethods {
  signIn: {
    /** `POST /sign-in/anonymous`: a new anonymous user and session. */
    anonymous(): Promise<ClientResult<{ token: string; user: AnonymousUser }>>;
  };
  /** `POST /delete-anonymous-user`: deletes the signed-in anonymous user. */
  deleteAnonymousUser(): Promise<ClientResult<{ success: boolean }>>;
}

/**
 * The client plugin for `anonymous()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [anonymousClient()] });
 * const { data } = await client.signIn.anonymous();
 */
export const anonymousClient = (): ClientPlugin<AnonymousClientMethods> & { id: "anonymous" } => ({
  id: "anonymous",
  methods: (call: Call) => ({
    signIn: { anonymous: () => call("/sign-in/anonymous", { method: "POST" }) },
    deleteAnonymousUser: () => call("/delete-anonymous-user", { method: "POST" }),
  }),
});
