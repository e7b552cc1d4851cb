import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestIdP } from "@latchkey/test-support";
import {
  deployments,
  errorRedirect,
  PREVIEW,
  PREVIEW_AUTH,
  readProfile,
  runToCompletion,
  sessionAt,
  startProxyIdP,
  withProfile,
  type Deployments,
} from "./support/deployments.ts";

let idp: TestIdP;
let t: Deployments;
beforeAll(async () => {
  idp = await startProxyIdP();
});
afterAll(() => idp.close());
afterEach(() => t?.close());

const DEFAULT_ERROR = `${PREVIEW_AUTH}/error`;

/** A real completion URL whose flow names `/oops` as its error URL. */
async function completionURL(): Promise<URL> {
  return (await runToCompletion(idp, t.browser, "alice-sub", { errorCallbackURL: "/oops" })).completion;
}

async function complete(url: URL | string): Promise<ReturnType<typeof errorRedirect>> {
  return errorRedirect(await t.browser.send(String(url)));
}

describe("completion route errors (redirects with the reference's codes)", () => {
  it("missing_profile: no profile parameter, to the default error URL", async () => {
    t = await deployments(idp);
    expect(await complete(`${PREVIEW_AUTH}/callback/idp/oauth-proxy?callbackURL=%2F`)).toEqual({
      status: 302,
      target: DEFAULT_ERROR,
      error: "missing_profile",
    });
  });

  it("invalid_profile: garbage, a tampered ciphertext, another secret's", async () => {
    t = await deployments(idp);
    const url = await completionURL();
    const garbage = new URL(url);
    garbage.searchParams.set("profile", "not-hex");
    expect(await complete(garbage)).toMatchObject({ target: DEFAULT_ERROR, error: "invalid_profile" });

    const tampered = new URL(url);
    const profile = url.searchParams.get("profile")!;
    const i = 80;
    tampered.searchParams.set(
      "profile",
      profile.slice(0, i) + (profile[i] === "0" ? "1" : "0") + profile.slice(i + 1),
    );
    expect(await complete(tampered)).toMatchObject({ target: DEFAULT_ERROR, error: "invalid_profile" });

    const foreign = await withProfile(
      url,
      await readProfile(url),
      "another-secret-0123456789-0123456789-abcd",
    );
    expect(await complete(foreign)).toMatchObject({ target: DEFAULT_ERROR, error: "invalid_profile" });
    // None of them spent the flow: the genuine URL still completes.
    expect((await t.browser.send(url.href)).headers.get("location")).toBe("/dashboard");
  });

  it("invalid_payload: not JSON, a missing field, a wrong type, a bad date, a __proto__ key", async () => {
    t = await deployments(idp);
    const url = await completionURL();
    const payload = await readProfile(url);
    const { state: _state, ...noState } = payload;
    const cases: unknown[] = [
      "not json",
      noState,
      { ...payload, timestamp: String(payload.timestamp) },
      { ...payload, account: { ...(payload.account as object), accessTokenExpiresAt: "tomorrow" } },
      { ...payload, userInfo: { ...(payload.userInfo as object), email: 42 } },
    ];
    for (const bad of cases) {
      expect(await complete(await withProfile(url, bad))).toMatchObject({
        target: DEFAULT_ERROR,
        error: "invalid_payload",
      });
    }
    const polluted = JSON.stringify(payload).replace(/^\{/, '{"__proto__":{"admin":true},');
    expect(await complete(await withProfile(url, polluted))).toMatchObject({ error: "invalid_payload" });
    expect(await sessionAt(t.browser, PREVIEW)).toBeNull();
  });

  it("provider_mismatch: the route names another provider than the payload; to the flow's error URL", async () => {
    t = await deployments(idp);
    const url = await completionURL();
    const other = new URL(url);
    other.pathname = "/api/auth/callback/other/oauth-proxy";
    expect(await complete(other)).toEqual({
      status: 302,
      target: `${PREVIEW}/oops`,
      error: "provider_mismatch",
    });
  });

  it("payload_expired: older than maxAge (60 s) or more than 10 s in the future", async () => {
    t = await deployments(idp);
    const url = await completionURL();
    const payload = await readProfile(url);
    const now = Date.now();
    for (const timestamp of [now - 61_000, now + 12_000]) {
      expect(await complete(await withProfile(url, { ...payload, timestamp }))).toMatchObject({
        target: `${PREVIEW}/oops`,
        error: "payload_expired",
      });
    }
    // 55 s old and 5 s ahead are within bounds: the latter completes the flow.
    const late = await t.browser.send((await withProfile(url, { ...payload, timestamp: now + 5_000 })).href);
    expect(late.headers.get("location")).toBe("/dashboard");
  });

  it("payload_expired honours a shorter maxAge", async () => {
    t = await deployments(idp, { proxy: { maxAge: 5 } });
    const url = await completionURL();
    const payload = await readProfile(url);
    const stale = await withProfile(url, { ...payload, timestamp: Date.now() - 6_000 });
    expect(await complete(stale)).toMatchObject({ error: "payload_expired" });
  });

  it("state_mismatch: a payload naming a state nobody stored", async () => {
    t = await deployments(idp);
    const url = await completionURL();
    const payload = await readProfile(url);
    const forged = await withProfile(url, { ...payload, state: "x".repeat(32) });
    expect(await complete(forged)).toEqual({
      status: 302,
      target: `${PREVIEW}/oops`,
      error: "state_mismatch",
    });
    expect(t.rows("session")).toHaveLength(0);
  });

  it("origin checks on: an untrusted callbackURL is 403 INVALID_CALLBACK_URL, before the profile is read", async () => {
    t = await deployments(idp, {
      shared: { advanced: { disableOriginCheck: false, disableCSRFCheck: true } },
    });
    const res = await t.browser.send(
      `${PREVIEW_AUTH}/callback/idp/oauth-proxy?callbackURL=https%3A%2F%2Fevil.test&profile=00`,
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe("INVALID_CALLBACK_URL");
  });

  it("a sign-in refused by core (sign-up disabled) redirects with core's code", async () => {
    t = await deployments(idp, { preview: { emailAndPassword: { enabled: true } } });
    const url = await completionURL();
    const payload = await readProfile(url);
    const noSignUp = await withProfile(url, { ...payload, disableSignUp: true });
    expect(await complete(noSignUp)).toEqual({
      status: 302,
      target: `${PREVIEW}/oops`,
      error: "signup_disabled",
    });
    expect(t.rows("user")).toHaveLength(0);
  });
});
