// Browser-safe entry (`@latchkey/device-authorization/client`): the routes as `@latchkey/client`
// methods. Type-only imports, so no server code reaches a bundle.
import type { Call, ClientPlugin, ClientResult } from "@latchkey/client";

/** `/device/code`'s answer (RFC 8628 §3.2); lifetimes in seconds. */
export interface DeviceCodeResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** `/device/token`'s answer once the code is approved: a session token as a Bearer access token. */
export interface DeviceTokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
}

/** `GET /device`'s answer; `client_id` and `scope` only for the code's owner. */
export interface DeviceVerification {
  user_code: string;
  status: "pending" | "approved" | "denied";
  client_id?: string | null;
  scope?: string | null;
}

/** The methods the client gains, under the reference client's names. */
export interface DeviceAuthorizationClientMethods {
  device: {
    /** `GET /device?user_code=…`: the code's status (and claims it for the signed-in user). */
    (args: { query: { user_code: string } }): Promise<ClientResult<DeviceVerification>>;
    /** `POST /device/code`: a new device code and user code. */
    code(body: { client_id: string; scope?: string; user_id?: string }): Promise<ClientResult<DeviceCodeResponse>>;
    /** `POST /device/token`: one poll. */
    token(body: { grant_type: "urn:ietf:params:oauth:grant-type:device_code"; device_code: string; client_id: string }): Promise<
      ClientResult<DeviceTokenResponse>
    >;
    /** `POST /device/approve` (signed in, after `device()` claimed the code). */
    approve(body: { userCode: string }): Promise<ClientResult<{ success: boolean }>>;
    /** `POST /device/deny` (signed in, after `device()` claimed the code). */
    deny(body: { userCode: string }): Promise<ClientResult<{ success: boolean }>>;
  };
}

/**
 * The client plugin for `deviceAuthorization()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [deviceAuthorizationClient()] });
 * const { data } = await client.device.code({ client_id: "my-tv-app" });
 */
export const deviceAuthorizationClient = (): ClientPlugin<DeviceAuthorizationClientMethods> & { id: "device-authorization" } => ({
  id: "device-authorization",
  methods: (call: Call) => {
    const device = ((args: { query: { user_code: string } }) =>
      call<DeviceVerification>("/device", { method: "GET", query: args.query })) as DeviceAuthorizationClientMethods["device"];
    device.code = (body) => call<DeviceCodeResponse>("/device/code", { method: "POST", body });
    device.token = (body) => call<DeviceTokenResponse>("/device/token", { method: "POST", body });
    device.approve = (body) => call<{ success: boolean }>("/device/approve", { method: "POST", body });
    device.deny = (body) => call<{ success: boolean }>("/device/deny", { method: "POST", body });
    return { device };
  },
});

/**
 * The client plugin for `oauthDeviceAuthorization()`: the same routes and methods (the
 * reference's `oauthDeviceAuthorizationClient`). The user's browser uses `device()` and
 * `device.approve()`/`device.deny()`; a public OAuth client may call `device.code()`, and
 * polls `/oauth2/token` with `grant_type=urn:ietf:params:oauth:grant-type:device_code`.
 */
export const oauthDeviceAuthorizationClient = deviceAuthorizationClient;
