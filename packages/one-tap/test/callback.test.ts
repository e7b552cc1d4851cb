import { CLIENT_ID, startIdP, type TestIdP } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneTapInstance, sessionCookie } from "./instance.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startIdP(["http://localhost:3000/api/auth/callback/google"]);
});
afterAll(() => idp.close());

const ada = {
  sub: "google-sub-1",
  email: "Ada@Example.com",
  email_verified: true,
  name: "Ada",
  picture: "https://img.example/ada.png",
};

interface OneTapBody {
  token: string;
  user: { id: string; email: string; name: string; image: string | null; emailVerified: boolean };
}

describe("POST /one-tap/callback: sign-in and sign-up", () => {
  it("creates the user and a google account on first use, answering {token, user} and the session cookie", async () => {
    const { oneTapWith, request, db } = oneTapInstance(idp);
    const idToken = await idp.signIdToken(ada);
    const response = await oneTapWith(idToken);
    expect(response.status).toBe(200);
    const body = (await response.json()) as OneTapBody;
    expect(Object.keys(body).sort()).toEqual(["token", "user"]);
    expect(body.user).toMatchObject({
      email: "ada@example.com",
      name: "Ada",
      image: "https://img.example/ada.png",
      emailVerified: true,
    });
    expect(body.token).toMatch(/^[A-Za-z0-9]{32}$/);

    const accounts = await db.findMany({
      model: "account",
      where: [{ field: "userId", value: body.user.id }],
    });
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({
      providerId: "google",
      accountId: "google-sub-1",
      idToken,
      scope: "openid,profile,email",
    });

    const session = await request("/get-session", { headers: { cookie: sessionCookie(response) } });
    expect(((await session.json()) as { user: { id: string } }).user.id).toBe(body.user.id);
  });

  it("signs the same Google account in again without a second user", async () => {
    const { oneTapWith, db } = oneTapInstance(idp);
    const first = (await (await oneTapWith(await idp.signIdToken(ada))).json()) as OneTapBody;
    const again = await oneTapWith(await idp.signIdToken(ada));
    expect(again.status).toBe(200);
    const body = (await again.json()) as OneTapBody;
    expect(body.user.id).toBe(first.user.id);
    expect(body.token).not.toBe(first.token);
    expect(await db.count({ model: "user" })).toBe(1);
    expect(await db.count({ model: "account" })).toBe(1);
  });

  it("gives a user without name or picture claims an empty name", async () => {
    const { oneTapWith } = oneTapInstance(idp);
    const response = await oneTapWith(await idp.signIdToken({ sub: "bare", email: "bare@example.com" }));
    expect(response.status).toBe(200);
    const { user } = (await response.json()) as OneTapBody;
    expect(user).toMatchObject({ name: "", image: null, emailVerified: false });
  });

  it('reads email_verified given as the string "true"', async () => {
    const { oneTapWith } = oneTapInstance(idp);
    const response = await oneTapWith(
      await idp.signIdToken({ sub: "s-str", email: "str@example.com", email_verified: "true" }),
    );
    expect(((await response.json()) as OneTapBody).user.emailVerified).toBe(true);
  });

  it("links the Google account to a verified local user with the same email", async () => {
    const { oneTapWith, post, db, auth } = oneTapInstance(idp);
    const signUp = await post("/sign-up/email", {
      email: "ada@example.com",
      password: "correct horse battery",
      name: "Ada L",
    });
    const local = ((await signUp.json()) as { user: { id: string } }).user;
    await auth.$context.internalAdapter.updateUser(local.id, { emailVerified: true });
    const response = await oneTapWith(await idp.signIdToken(ada));
    expect(response.status).toBe(200);
    expect(((await response.json()) as OneTapBody).user.id).toBe(local.id);
    const providers = (
      await db.findMany<{ providerId: string }>({
        model: "account",
        where: [{ field: "userId", value: local.id }],
      })
    )
      .map((a) => a.providerId)
      .sort();
    expect(providers).toEqual(["credential", "google"]);
  });
});

describe("POST /one-tap/callback: refusals from the sign-in", () => {
  it("answers 401 'unable to link account' when the local user's email is unverified", async () => {
    const { oneTapWith, post, db } = oneTapInstance(idp);
    await post("/sign-up/email", {
      email: "ada@example.com",
      password: "correct horse battery",
      name: "Ada L",
    });
    const response = await oneTapWith(await idp.signIdToken(ada));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "unable to link account" });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await db.count({ model: "account", where: [{ field: "providerId", value: "google" }] })).toBe(0);
  });

  it("answers 401 'unable to link account' when Google does not vouch for the email", async () => {
    const { oneTapWith, post, auth } = oneTapInstance(idp);
    const signUp = await post("/sign-up/email", {
      email: "ada@example.com",
      password: "correct horse battery",
      name: "Ada L",
    });
    const local = ((await signUp.json()) as { user: { id: string } }).user;
    await auth.$context.internalAdapter.updateUser(local.id, { emailVerified: true });
    const response = await oneTapWith(await idp.signIdToken({ ...ada, email_verified: false }));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "unable to link account" });
  });

  it("disableSignup refuses new users with 401 'signup disabled' but signs existing ones in", async () => {
    const open = oneTapInstance(idp);
    const closed = oneTapInstance(idp, {}, { disableSignup: true });
    const refused = await closed.oneTapWith(await idp.signIdToken(ada));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ message: "signup disabled" });
    expect(await closed.db.count({ model: "user" })).toBe(0);
    // Same store, sign-up off: a user created earlier still gets in.
    const shared = oneTapInstance(idp, { database: () => open.db }, { disableSignup: true });
    expect((await open.oneTapWith(await idp.signIdToken(ada))).status).toBe(200);
    expect((await shared.oneTapWith(await idp.signIdToken(ada))).status).toBe(200);
  });

  it("socialProviders.google.disableSignUp refuses new users too", async () => {
    const { oneTapWith } = oneTapInstance(idp, {
      socialProviders: { google: { clientId: CLIENT_ID, clientSecret: "unused", disableSignUp: true } },
    });
    const response = await oneTapWith(await idp.signIdToken(ada));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "signup disabled" });
  });

  it("answers 403 EMAIL_NOT_VERIFIED when google requires verified emails and the token's is not", async () => {
    const { oneTapWith } = oneTapInstance(idp, {
      socialProviders: {
        google: { clientId: CLIENT_ID, clientSecret: "unused", requireEmailVerification: true },
      },
    });
    const response = await oneTapWith(await idp.signIdToken({ ...ada, email_verified: false }));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});

describe("POST /one-tap/callback: client id", () => {
  it("takes the audience from its own clientId over socialProviders.google", async () => {
    const { oneTapWith } = oneTapInstance(idp, { socialProviders: {} }, { clientId: "one-tap-client" });
    expect((await oneTapWith(await idp.signIdToken({ ...ada, aud: "one-tap-client" }))).status).toBe(200);
    expect((await oneTapWith(await idp.signIdToken(ada))).status).toBe(400);
  });

  it("accepts any of several client ids", async () => {
    const { oneTapWith } = oneTapInstance(idp, { socialProviders: {} }, { clientId: ["web", CLIENT_ID] });
    expect((await oneTapWith(await idp.signIdToken(ada))).status).toBe(200);
  });

  it("reads socialProviders.google given as a function", async () => {
    const { oneTapWith } = oneTapInstance(idp, {
      socialProviders: { google: () => ({ clientId: CLIENT_ID, clientSecret: "unused" }) },
    });
    expect((await oneTapWith(await idp.signIdToken(ada))).status).toBe(200);
  });

  it("answers 400 with the reference's message when no client id is configured anywhere", async () => {
    const { oneTapWith } = oneTapInstance(idp, { socialProviders: {} });
    const response = await oneTapWith(await idp.signIdToken(ada));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message:
        "Google client ID is required for One Tap. Set it on the oneTap plugin (clientId) or on socialProviders.google.",
    });
  });

  it("is callable through auth.api", async () => {
    const { auth } = oneTapInstance(idp);
    const result = (await auth.api.oneTapCallback!({
      body: { idToken: await idp.signIdToken(ada) },
    })) as OneTapBody;
    expect(result.user.email).toBe("ada@example.com");
  });
});
