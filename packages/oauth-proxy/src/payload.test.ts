import { describe, expect, it } from "vitest";
import { symmetricEncrypt } from "@latchkey/core";
import { isFresh, openPayload, sealPayload, type ProxyPayloadInput } from "./payload.js";

const KEY = "payload-test-key-0123456789-0123456789-abcd";
const payload: ProxyPayloadInput = {
  userInfo: { id: "sub-1", email: "Ada@Example.COM", name: "Ada", emailVerified: true, locale: "en" },
  account: {
    providerId: "idp",
    accountId: "sub-1",
    accessToken: "at",
    accessTokenExpiresAt: new Date("2030-01-02T03:04:05.678Z"),
    scope: "openid,email",
  },
  profile: { sub: "sub-1" },
  scopes: ["openid", "email"],
  state: "s".repeat(32),
  callbackURL: "/dashboard",
  timestamp: 1_700_000_000_000,
};

describe("profile payload", () => {
  it("round-trips: emails lower-cased, dates back as Dates, unknown keys kept", async () => {
    const opened = await openPayload(KEY, await sealPayload(KEY, payload));
    expect(opened.payload?.userInfo).toEqual({
      id: "sub-1",
      email: "ada@example.com",
      name: "Ada",
      emailVerified: true,
      locale: "en",
    });
    expect(opened.payload?.account.accessTokenExpiresAt).toEqual(new Date("2030-01-02T03:04:05.678Z"));
  });

  it("reads the reference's date forms (up to 7 fractional digits, offsets) and null fields", async () => {
    const data = JSON.stringify({
      ...payload,
      account: {
        ...payload.account,
        accessTokenExpiresAt: "2030-01-02T05:04:05.1234567+02:00",
        refreshToken: null,
      },
      userInfo: { ...payload.userInfo, image: null, emailVerified: undefined },
    });
    const opened = await openPayload(KEY, await symmetricEncrypt({ key: KEY, data }));
    expect(opened.payload?.account.accessTokenExpiresAt?.toISOString()).toBe("2030-01-02T03:04:05.123Z");
    expect(opened.payload?.userInfo.emailVerified).toBe(false);
  });

  it("tells a wrong key (invalid_profile) from a wrong shape (invalid_payload)", async () => {
    expect(
      (await openPayload("another-key-0123456789-0123456789-abcdef", await sealPayload(KEY, payload))).error,
    ).toBe("invalid_profile");
    const wrong = await symmetricEncrypt({ key: KEY, data: JSON.stringify({ ...payload, callbackURL: "" }) });
    expect((await openPayload(KEY, wrong)).error).toBe("invalid_payload");
  });

  it("is fresh from 10 s ahead to maxAge old, inclusive", async () => {
    const opened = (await openPayload(KEY, await sealPayload(KEY, payload))).payload!;
    const t = payload.timestamp;
    expect(isFresh(opened, 60, t + 60_000)).toBe(true);
    expect(isFresh(opened, 60, t + 60_001)).toBe(false);
    expect(isFresh(opened, 60, t - 10_000)).toBe(true);
    expect(isFresh(opened, 60, t - 10_001)).toBe(false);
  });
});
