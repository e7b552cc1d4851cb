// Browser-safe entry (`@latchkey/multi-session/client`): the routes as `@latchkey/client`
// methods. Type-only imports, so no server code reaches a bundle.
import type { Call, ClientPlugin, ClientResult } from "@latchkey/client";

/** A session and its user as the routes answer them (dates as JSON strings). */
export interface DeviceSession {
  session: { id: string; token: string; userId: string; expiresAt: string } & Record<string, unknown>;
  user: { id: string; email: string; name: string } & Record<string, unknown>;
}

/** The methods the client gains, under the reference client's names (`authClient.multiSession.*`). */
export interface MultiSessionClientMethods {
  multiSession: {
    /** `GET /multi-session/list-device-sessions`: one live session per user this browser holds. */
    listDeviceSessions(): Promise<ClientResult<DeviceSession[]>>;
    /** `POST /multi-session/set-active`: makes one of them the active session. */
    setActive(body: { sessionToken: string }): Promise<ClientResult<DeviceSession>>;
    /** `POST /multi-session/revoke`: deletes one of them (the active one hands over to another). */
    revoke(body: { sessionToken: string }): Promise<ClientResult<{ status: boolean }>>;
  };
}

/**
 * The client plugin for `multiSession()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [multiSessionClient()] });
 * const { data } = await client.multiSession.listDeviceSessions();
 */
export const multiSessionClient = (): ClientPlugin<MultiSessionClientMethods> & { id: "multi-session" } => ({
  id: "multi-session",
  methods: (call: Call) => ({
    multiSession: {
      listDeviceSessions: () => call<DeviceSession[]>("/multi-session/list-device-sessions", { method: "GET" }),
      setActive: (body) => call<DeviceSession>("/multi-session/set-active", { method: "POST", body }),
      revoke: (body) => call<{ status: boolean }>("/multi-session/revoke", { method: "POST", body }),
    },
  }),
});
