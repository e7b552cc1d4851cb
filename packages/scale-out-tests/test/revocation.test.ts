// Issue 5 §3: a revocation through one node takes effect through the other at once without a
// cookie cache, and within `cookieCache.maxAge` with it.
import { describe, expect, it } from "vitest";
import { CACHE_MAX_AGE, cluster, STORAGE_MODES } from "./support/clusters.ts";
import { getSession, newUser, signIn, signUp } from "./support/flows.ts";
import { call, SESSION_DATA_COOKIE, type Answer } from "./support/http.ts";

describe.each(STORAGE_MODES)("revocation without a cookie cache, sessions in %s", (storage) => {
  it("sign-out on B ends the session on A at once", async () => {
    const { a, b } = cluster(storage);
    const device = await signUp(a, newUser());
    expect((await getSession(a, device)).body?.session.token).toBe(device.token);
    // The same cookies in a second tab that goes through B.
    const out = await call(b, "/sign-out", { json: {}, jar: device.jar.clone() });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect((await getSession(a, device)).body).toBeNull();
    expect((await getSession(a, { bearer: device.token })).body).toBeNull();
    expect((await getSession(b, { bearer: device.token })).body).toBeNull();
  });

  it("revoke-session on B ends that session on A at once and leaves the caller's", async () => {
    const { a, b } = cluster(storage);
    const user = newUser();
    const laptop = await signUp(a, user);
    const phone = await signIn(b, user);
    const revoked = await call(b, "/revoke-session", { json: { token: laptop.token }, jar: phone.jar });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ status: true });
    expect((await getSession(a, laptop)).body).toBeNull();
    expect((await getSession(a, phone)).body?.session.token).toBe(phone.token);
  });

  it("revoke-sessions on B ends every session of the user on A at once", async () => {
    const { a, b } = cluster(storage);
    const user = newUser();
    const laptop = await signUp(a, user);
    const tablet = await signIn(a, user);
    const phone = await signIn(b, user);
    const revoked = await call(b, "/revoke-sessions", { json: {}, jar: phone.jar });
    expect(revoked.status).toBe(200);
    for (const device of [laptop, tablet, phone]) {
      expect((await getSession(a, device)).body).toBeNull();
      expect((await getSession(b, device)).body).toBeNull();
    }
  });
});

describe(`revocation with a cookie cache (maxAge ${CACHE_MAX_AGE} s), sessions in redis`, () => {
  it("A may serve the revoked session from the cache only until the cache expires, then null", async () => {
    const { a, b } = cluster("cache");
    const user = newUser();
    const phone = await signUp(b, user);
    const laptop = await signIn(a, user);
    expect(laptop.jar.get(SESSION_DATA_COOKIE)).toBeTruthy();
    // The cache was issued while the sign-in was in flight, so it expires within this span.
    const expiresNoEarlier = laptop.answer.sentAt + CACHE_MAX_AGE * 1000;
    const expiresNoLater = laptop.answer.receivedAt + CACHE_MAX_AGE * 1000;

    // The laptop's cookies as they stand; every probe presents exactly these, as a tab that
    // never heard of the revocation would.
    const snapshot = laptop.jar.clone();

    const revoked = await call(b, "/revoke-sessions", { json: {}, jar: phone.jar });
    expect(revoked.status).toBe(200);
    // Storage already knows: A reading it answers null at once.
    const uncached = await getSession(a, { jar: snapshot.clone() }, "?disableCookieCache=true");
    expect(uncached.body).toBeNull();

    const probes: Array<Answer<unknown>> = [];
    for (;;) {
      const probe = await getSession(a, { jar: snapshot.clone() });
      probes.push(probe);
      if (probe.sentAt > expiresNoLater + 300 || probe.sentAt > expiresNoEarlier + 10_000) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const served = probes.filter((p) => p.body !== null);
    // Allowed stale window: a cached answer only to a request sent before the cache could have expired.
    for (const p of served) {
      expect(p.sentAt, timeline(probes, expiresNoEarlier, expiresNoLater)).toBeLessThanOrEqual(
        expiresNoLater,
      );
      // A cached answer must not extend its own life by re-issuing the cache cookie.
      expect(p.headers.getSetCookie().filter((c) => c.startsWith(`${SESSION_DATA_COOKIE}=`))).toEqual([]);
    }
    // After maxAge, null, every time.
    const late = probes.filter((p) => p.sentAt > expiresNoLater);
    expect(late.length).toBeGreaterThan(0);
    for (const p of late) expect(p.body, timeline(probes, expiresNoEarlier, expiresNoLater)).toBeNull();
    // The first probe left well inside the window must have been answered from the cache:
    // otherwise this test would not be exercising the cache at all.
    const first = probes[0]!;
    if (first.receivedAt < expiresNoEarlier) expect(first.body).not.toBeNull();
    // And a client that keeps what A sets loses the cache cookie with the first null answer.
    const browser = snapshot.clone();
    await getSession(a, { jar: browser });
    expect(browser.get(SESSION_DATA_COOKIE)).toBeUndefined();
  });
});

/** The probes relative to the cache's expiry span, for failure messages. */
function timeline(probes: Array<Answer<unknown>>, from: number, to: number): string {
  const rows = probes.map(
    (p) => `sent ${p.sentAt - from} ms, answered ${p.receivedAt - from} ms: ${p.body ? "session" : "null"}`,
  );
  return `cache expires between 0 and ${to - from} ms\n${rows.join("\n")}`;
}
