import { createAuthClient } from "@latchkey/client";
import { browserFetch, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deviceAuthorizationClient } from "../src/client.ts";
import { deviceInstance, forgetLastPoll, GRANT_TYPE, PASSWORD } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await deviceInstance("sqlite");
});
afterAll(() => t.close());

const browserClient = () =>
  createAuthClient({
    baseURL: "http://localhost:3000",
    fetch: browserFetch((request) => t.auth.handler(request)),
    plugins: [deviceAuthorizationClient()],
  });

describe("deviceAuthorizationClient", () => {
  it("code → device (claim) → approve → token, and a deny", async () => {
    const tv = browserClient();
    const issued = await tv.device.code({ client_id: "tv-app", scope: "profile" });
    expect(issued.error).toBeNull();
    const codes = issued.data!;
    const pending = await tv.device.token({ grant_type: GRANT_TYPE, device_code: codes.device_code, client_id: "tv-app" });
    expect(pending.data).toBeNull();
    expect(pending.error).toMatchObject({ status: 400, error: "authorization_pending", error_description: "Authorization pending" });

    const phone = browserClient();
    expect((await phone.signUp.email({ email: "phone@example.com", password: PASSWORD, name: "P" })).error).toBeNull();
    const seen = await phone.device({ query: { user_code: codes.user_code } });
    expect(seen.data).toEqual({ user_code: codes.user_code, status: "pending", client_id: "tv-app", scope: "profile" });
    expect((await phone.device.approve({ userCode: codes.user_code })).data).toEqual({ success: true });
    await forgetLastPoll(t, codes.device_code);
    const token = await tv.device.token({ grant_type: GRANT_TYPE, device_code: codes.device_code, client_id: "tv-app" });
    expect(token.data).toMatchObject({ token_type: "Bearer", scope: "profile" });
    const session = await t.auth.$context.internalAdapter.findSession(token.data!.access_token);
    expect(session?.user.email).toBe("phone@example.com");

    const other = (await tv.device.code({ client_id: "tv-app" })).data!;
    await phone.device({ query: { user_code: other.user_code } });
    expect((await phone.device.deny({ userCode: other.user_code })).data).toEqual({ success: true });
    const denied = await tv.device.token({ grant_type: GRANT_TYPE, device_code: other.device_code, client_id: "tv-app" });
    expect(denied.error).toMatchObject({ status: 400, error: "access_denied" });
  });
});
