import { bearer } from "@latchkey/bearer";
import { bearer as referenceBearer } from "better-auth/plugins/bearer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { responseCookies, SESSION_COOKIE } from "./support/cookies.ts";
import { getSession, signIn, signUp, type SignedIn } from "./support/flows.ts";
import { createPair, jsonPost, url, type Handler, type Pair } from "./support/instances.ts";

/**
 * `set-auth-token` from Latchkey's `bearer()` against the reference's `bearer()`, both on one
 * database and secret. Tokens are minted per side, so the header is compared by its relation
 * to the side's own session (cookie value, body token) and by crossing over: each side's
 * header must authenticate on the other.
 */
let pair: Pair;
let sides: Record<"reference" | "latchkey", Handler>;
beforeAll(async () => {
  pair = await createPair({
    reference: { plugins: [referenceBearer()] },
    latchkey: { plugins: [bearer()] },
  });
  sides = { reference: pair.reference, latchkey: pair.latchkey };
});
afterAll(() => pair.close());

let serial = 0;
const newUser = () => ({
  name: `Bearer ${++serial}`,
  email: `bearer${serial}@example.com`,
  password: `bearer-pass-${serial}`,
});

/** What a side's response says about the token, with the token itself masked. */
function tokenHeaders(signed: SignedIn) {
  const header = signed.response.headers.get("set-auth-token");
  const cookie = responseCookies(signed.response).find((c) => c.name === SESSION_COOKIE);
  return {
    header,
    // The header is the session cookie's value, percent-decoded: `<token>.<base64 HMAC>`.
    matchesCookie: header === decodeURIComponent(cookie?.value ?? ""),
    shape: header?.replace(signed.token, "<token>").replace(/\.[A-Za-z0-9+/]{43}=$/, ".<signature>"),
    exposed: signed.response.headers.get("access-control-expose-headers"),
  };
}

describe("set-auth-token: Latchkey's bearer() against the reference's", () => {
  for (const flow of ["sign-up", "sign-in"] as const) {
    it(`${flow}: same header, same form, exposed the same way`, async () => {
      const results = {} as Record<keyof typeof sides, ReturnType<typeof tokenHeaders>>;
      for (const [side, handler] of Object.entries(sides) as [keyof typeof sides, Handler][]) {
        const user = newUser();
        const created = await signUp(handler, user);
        const signed = flow === "sign-up" ? created : await signIn(handler, user);
        results[side] = tokenHeaders(signed);
      }
      expect(results.reference).toMatchObject({
        matchesCookie: true,
        shape: "<token>.<signature>",
        exposed: "set-auth-token",
      });
      const { header: _r, ...reference } = results.reference;
      const { header: _l, ...latchkey } = results.latchkey;
      expect(latchkey).toEqual(reference);
    });
  }

  it("each side's header authenticates on the other as a Bearer token", async () => {
    for (const [from, to] of [
      ["reference", "latchkey"],
      ["latchkey", "reference"],
    ] as const) {
      const user = newUser();
      await signUp(sides[from], user);
      const signed = await signIn(sides[from], user);
      const header = signed.response.headers.get("set-auth-token")!;
      const session = await getSession(sides[to], { authorization: `Bearer ${header}` });
      expect(session?.session.token, `${from} → ${to}`).toBe(signed.token);
      expect(session?.user.email).toBe(user.email);
    }
  });

  it("no header where no session cookie is set: get-session, failed sign-in, /ok", async () => {
    for (const [side, handler] of Object.entries(sides)) {
      const user = newUser();
      const created = await signUp(handler, user);
      const header = created.response.headers.get("set-auth-token")!;
      const responses = [
        await handler(new Request(url("/get-session"), { headers: { authorization: `Bearer ${header}` } })),
        await handler(new Request(url("/get-session"))),
        await handler(jsonPost("/sign-in/email", { email: user.email, password: "wrong-password" })),
        await handler(new Request(url("/ok"))),
        await handler(jsonPost("/sign-out", {}, { cookie: created.cookie })),
      ];
      expect(
        responses.map((r) => r.status),
        side,
      ).toEqual([200, 200, 401, 200, 200]);
      for (const res of responses) {
        expect(res.headers.get("set-auth-token"), side).toBeNull();
        expect(res.headers.get("access-control-expose-headers"), side).toBeNull();
      }
    }
  });

  it("sign-out with the Bearer header ends the session on both", async () => {
    const ended: Record<string, boolean> = {};
    for (const [side, handler] of Object.entries(sides)) {
      const created = await signUp(handler, newUser());
      const header = created.response.headers.get("set-auth-token")!;
      const out = await handler(jsonPost("/sign-out", {}, { authorization: `Bearer ${header}` }));
      expect(out.status).toBe(200);
      ended[side] = (await getSession(handler, { authorization: `Bearer ${header}` })) === null;
    }
    // The reference's bearer() turns the header into a session cookie, so sign-out ends that
    // session; Latchkey's sign-out reads Bearer in core.
    expect(ended).toEqual({ reference: true, latchkey: true });
  });
});

describe("bearer({ requireSignature: true })", () => {
  it("both refuse raw Bearer tokens and accept the signed one", async () => {
    const strict = await createPair({
      reference: { plugins: [referenceBearer({ requireSignature: true })] },
      latchkey: { plugins: [bearer({ requireSignature: true })] },
    });
    try {
      const user = newUser();
      const signed = await signUp(strict.reference, user);
      const header = signed.response.headers.get("set-auth-token")!;
      for (const side of [strict.reference, strict.latchkey]) {
        expect(await getSession(side, { authorization: `Bearer ${signed.token}` })).toBeNull();
        expect((await getSession(side, { authorization: `Bearer ${header}` }))?.session.token).toBe(signed.token);
      }
    } finally {
      strict.close();
    }
  });
});
