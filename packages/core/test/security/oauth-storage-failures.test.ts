import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  FAULT_MESSAGE,
  faultyAdapter,
  type FaultSwitch,
  type TestIdP,
} from "@latchkey/test-support";
import { createAuth, memoryAdapter, type Row } from "../../src/index.ts";
import { BASE, SECRET } from "../support/instance.ts";
import { idpProvider, startSignIn, startTestIdP } from "../support/social.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startTestIdP();
});
afterAll(() => idp.close());

/** An instance whose memory store fails the calls `faults` names. */
function faultyInstance(faults: FaultSwitch, logged: string[]) {
  const store: Record<string, Row[]> = {};
  const auth = createAuth({
    database: faultyAdapter(memoryAdapter(store), faults),
    secret: SECRET,
    baseURL: BASE,
    socialProviders: { idp: idpProvider(idp) },
    emailAndPassword: { enabled: true },
    logger: { level: "error", log: (_l, m, ...a) => void logged.push([m, ...a.map(String)].join(" ")) },
  });
  return { store, auth, browser: new Browser(BASE, auth.handler) };
}

/** Runs a flow as alice with `fault` active for the callback only; answers the callback's response. */
async function callbackWith(
  t: ReturnType<typeof faultyInstance>,
  faults: FaultSwitch,
  fault: FaultSwitch["fault"],
): Promise<Response> {
  idp.login("alice-sub");
  const url = await startSignIn(t.browser, { errorCallbackURL: "/oops" });
  const { location } = await t.browser.follow(url, {
    stopAt: (u) => u.pathname === "/api/auth/callback/idp",
  });
  faults.fault = fault;
  try {
    return await t.browser.send(location);
  } finally {
    faults.fault = null;
  }
}

describe("OAuth callback: a store that throws is an error redirect, never a 500", () => {
  it("session creation: unable_to_create_session to the flow's error URL, no session cookie", async () => {
    const faults: FaultSwitch = { fault: null, failed: [] };
    const logged: string[] = [];
    const t = faultyInstance(faults, logged);
    const res = await callbackWith(t, faults, { method: "create", model: "session" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/oops?error=unable_to_create_session");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("better-auth.session_token="))).toBe(false);
    expect(faults.failed).toEqual(["create:session"]);
    expect(t.store.session ?? []).toHaveLength(0);
    expect(logged.join("\n")).toContain(FAULT_MESSAGE);
  });

  it("refreshing a returning user's tokens: unable_to_update_account, no new session", async () => {
    const faults: FaultSwitch = { fault: null, failed: [] };
    const logged: string[] = [];
    const t = faultyInstance(faults, logged);
    expect((await callbackWith(t, faults, null)).headers.get("location")).toBe("/dashboard");
    const before = t.store.session!.length;
    const tokens = { ...t.store.account![0]! };
    // A second sign-in of the same account, in a browser of its own.
    const res = await callbackWith({ ...t, browser: new Browser(BASE, t.auth.handler) }, faults, {
      method: "update",
      model: "account",
    });
    expect(res.headers.get("location")).toBe("/oops?error=unable_to_update_account");
    expect(faults.failed).toEqual(["update:account"]);
    expect(t.store.session!.length).toBe(before);
    expect(t.store.account![0]!.accessToken).toBe(tokens.accessToken);
    // The cause is logged; no token is.
    const log = logged.join("\n");
    expect(log).toContain(FAULT_MESSAGE);
    for (const token of [tokens.accessToken, tokens.refreshToken, tokens.idToken])
      if (token) expect(log).not.toContain(String(token));
  });

  it("linking: a failing insert is unable_to_link_account, a failing token update unable_to_update_account", async () => {
    const faults: FaultSwitch = { fault: null, failed: [] };
    const logged: string[] = [];
    const t = faultyInstance(faults, logged);
    const signUp = await t.browser.post(`${BASE}/api/auth/sign-up/email`, {
      email: "alice@example.com",
      password: "correct horse battery",
      name: "Alice",
    });
    expect(signUp.status).toBe(200);
    const link = async (fault: FaultSwitch["fault"]): Promise<Response> => {
      idp.login("alice-sub");
      const url = await startSignIn(
        t.browser,
        { errorCallbackURL: "/oops", callbackURL: "/settings" },
        "/link-social",
      );
      const { location } = await t.browser.follow(url, {
        stopAt: (u) => u.pathname === "/api/auth/callback/idp",
      });
      faults.fault = fault;
      try {
        return await t.browser.send(location);
      } finally {
        faults.fault = null;
      }
    };
    const failedInsert = await link({ method: "create", model: "account" });
    expect(failedInsert.headers.get("location")).toBe("/oops?error=unable_to_link_account");
    expect(t.store.account!.filter((a) => a.providerId === "idp")).toHaveLength(0);
    expect((await link(null)).headers.get("location")).toBe("/settings");
    const linked = { ...t.store.account!.find((a) => a.providerId === "idp")! };
    const failedUpdate = await link({ method: "update", model: "account" });
    expect(failedUpdate.headers.get("location")).toBe("/oops?error=unable_to_update_account");
    expect(t.store.account!.find((a) => a.providerId === "idp")).toEqual(linked);
    expect(faults.failed).toEqual(["create:account", "update:account"]);
    expect(logged.join("\n")).toContain(FAULT_MESSAGE);
  });
});
