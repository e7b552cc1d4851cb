// Issue 5 §3: a session created through one node is valid through the other.
import { describe, expect, it } from "vitest";
import { cluster, STORAGE_MODES } from "./support/clusters.ts";
import { getSession, newUser, signIn, signUp } from "./support/flows.ts";
import { SESSION_COOKIE } from "./support/http.ts";

describe.each(STORAGE_MODES)("sessions across two nodes, stored in %s", (storage) => {
  it("sign-up on A, then B answers get-session with the same session, by cookie and by Bearer", async () => {
    const { a, b } = cluster(storage);
    const user = newUser();
    const signedUp = await signUp(a, user);
    expect(signedUp.jar.get(SESSION_COOKIE)).toMatch(/^[A-Za-z0-9]+\.[A-Za-z0-9%+/=_-]+$/);

    const onA = await getSession(a, { jar: signedUp.jar });
    const byCookie = await getSession(b, { jar: signedUp.jar });
    const byToken = await getSession(b, { bearer: signedUp.token });
    const bySignedValue = await getSession(b, {
      bearer: decodeURIComponent(signedUp.jar.get(SESSION_COOKIE) ?? ""),
    });
    // No bearer() plugin here: a bare token is no credential, on either node.
    expect(byToken.status).toBe(200);
    expect(byToken.body).toBeNull();
    for (const answer of [onA, byCookie, bySignedValue]) {
      expect(answer.status).toBe(200);
      expect(answer.body?.session).toMatchObject({ token: signedUp.token, userId: signedUp.userId });
      expect(answer.body?.user).toMatchObject({ id: signedUp.userId, email: user.email, name: user.name });
    }
    // One stored session, so the whole body matches, dates included.
    expect(byCookie.body).toEqual(onA.body);
    expect(bySignedValue.body).toEqual(onA.body);
  });

  it("sign-in on B, then A answers with that session; each node sees both of the user's sessions", async () => {
    const { a, b } = cluster(storage);
    const user = newUser();
    const first = await signUp(a, user);
    const second = await signIn(b, user);
    expect(second.token).not.toBe(first.token);
    expect((await getSession(a, { jar: second.jar })).body?.session.token).toBe(second.token);
    expect((await getSession(b, { jar: first.jar })).body?.session.token).toBe(first.token);
  });

  it("a forged or unknown token is refused by both", async () => {
    const { a, b } = cluster(storage);
    for (const node of [a, b]) {
      expect((await getSession(node, { bearer: "A".repeat(32) })).body).toBeNull();
      expect((await getSession(node, { bearer: `${"A".repeat(32)}.${"x".repeat(43)}=` })).body).toBeNull();
    }
  });
});
