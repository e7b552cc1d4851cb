import { createAuthClient } from "@latchkey/client";
import { browserFetch, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthDeviceAuthorizationClient } from "../src/client.ts";
import { PASSWORD } from "./instance.ts";
import { DEVICE_GRANT, deviceClient, form, oauthDeviceInstance } from "./oauth-instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await oauthDeviceInstance("sqlite");
});
afterAll(() => t.close());

const browserClient = () =>
  createAuthClient({ baseURL: "http://localhost:3000", fetch: browserFetch((request) => t.auth.handler(request)), plugins: [oauthDeviceAuthorizationClient()] });

describe("oauthDeviceAuthorizationClient", () => {
  it("a public client's code; the user's browser sees the client and scopes, approves; /oauth2/token issues", async () => {
    const { client_id } = await deviceClient(t, { scope: "openid profile" });
    const tv = browserClient();
    const issued = await tv.device.code({ client_id, scope: "openid profile" });
    expect(issued.error).toBeNull();
    const phone = browserClient();
    expect((await phone.signUp.email({ email: "viewer@example.com", password: PASSWORD, name: "V" })).error).toBeNull();
    const seen = await phone.device({ query: { user_code: issued.data!.user_code } });
    expect(seen.data).toEqual({ user_code: issued.data!.user_code, status: "pending", client_id, scope: "openid profile" });
    expect((await phone.device.approve({ userCode: issued.data!.user_code })).data).toEqual({ success: true });
    const tokens = await form(t, "/oauth2/token", { grant_type: DEVICE_GRANT, device_code: issued.data!.device_code, client_id });
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.json).toMatchObject({ token_type: "Bearer", scope: "openid profile", id_token: expect.any(String) });
  });
});
