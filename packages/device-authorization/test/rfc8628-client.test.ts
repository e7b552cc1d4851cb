import type { TestAuth } from "@latchkey/test-support";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deviceInstance, signedIn } from "./instance.ts";

// A standard RFC 8628 client (openid-client): form-encoded requests, its own polling loop
// (interval, slow_down backoff), and its response checks.
describe("openid-client's device flow against the plugin", () => {
  let t: TestAuth;
  let config: oidc.Configuration;
  beforeAll(async () => {
    t = await deviceInstance("sqlite", { interval: "1s" });
    const base = "http://localhost:3000/api/auth";
    config = new oidc.Configuration(
      { issuer: "http://localhost:3000", device_authorization_endpoint: `${base}/device/code`, token_endpoint: `${base}/device/token` },
      "tv-app",
      undefined,
      oidc.None(),
    );
    oidc.allowInsecureRequests(config);
    config[oidc.customFetch] = (url, options) => t.auth.handler(new Request(url, options as RequestInit));
  });
  afterAll(() => t.close());

  it("initiates, polls while the user approves, and receives the session token", async () => {
    const started = await oidc.initiateDeviceAuthorization(config, { scope: "profile" });
    expect(started).toMatchObject({ interval: 1, expires_in: 1800, verification_uri: "http://localhost:3000/device" });
    const polling = oidc.pollDeviceAuthorizationGrant(config, started);
    const { browser, userId } = await signedIn(t, "rfc-client");
    await browser.get(`/device?user_code=${started.user_code}`);
    expect((await browser.post("/device/approve", { userCode: started.user_code })).status).toBe(200);
    const tokens = await polling;
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.scope).toBe("profile");
    const session = await t.auth.$context.internalAdapter.findSession(tokens.access_token);
    expect(session?.user.id).toBe(userId);
  });

  it("a denial ends the polling with access_denied", async () => {
    const started = await oidc.initiateDeviceAuthorization(config, {});
    const polling = oidc.pollDeviceAuthorizationGrant(config, started);
    const { browser } = await signedIn(t, "rfc-denier");
    await browser.get(`/device?user_code=${started.user_code}`);
    await browser.post("/device/deny", { userCode: started.user_code });
    await expect(polling).rejects.toMatchObject({ error: "access_denied" });
  });
});
