import { bearer as referenceBearer, genericOAuth as referenceGenericOAuth } from "better-auth/plugins";
import {
  lastLoginMethod as referenceLastLoginMethod,
  oAuthProxy as referenceOAuthProxy,
} from "better-auth/plugins";
import { oneTap as referenceOneTap, twoFactor as referenceTwoFactor } from "better-auth/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer } from "@latchkey/bearer";
import { genericOAuth } from "@latchkey/generic-oauth";
import { lastLoginMethod } from "@latchkey/last-login-method";
import { oAuthProxy } from "@latchkey/oauth-proxy";
import { oneTap } from "@latchkey/one-tap";
import { twoFactor } from "@latchkey/two-factor";
import { github, google, socialProviderFactories } from "@latchkey/social-providers";
import { capture, type Captured } from "./support/capture.ts";
import { signUp } from "./support/flows.ts";
import { createHttpPair, referencePostRoutes, type HttpPair } from "./support/http-pair.ts";
import { BASE_PATH, BASE_URL } from "./support/instances.ts";
import { normalizeCaptured } from "./support/normalize.ts";
import { sendRaw, type BodylessShape, type RawRequest } from "./support/raw-http.ts";
import { restoreTables, snapshotTables } from "./support/tables.ts";

/**
 * Every POST route of core and of bearer, one-tap, last-login-method, oauth-proxy,
 * generic-oauth and two-factor, sent with no body over real HTTP to both: the reference behind its Node
 * adapter, Latchkey behind @hono/node-server. The reference treats such a POST as an empty
 * input; Latchkey answered 415 UNSUPPORTED_MEDIA_TYPE to all of them.
 */

const provider = { clientId: "compat-client-id", clientSecret: "compat-client-secret" };
const idp = {
  providerId: "idp",
  clientId: "compat-client-id",
  clientSecret: "compat-client-secret",
  // Never contacted: no route here gets as far as the provider.
  authorizationUrl: "http://127.0.0.1:9/authorize",
  tokenUrl: "http://127.0.0.1:9/token",
  userInfoUrl: "http://127.0.0.1:9/userinfo",
};
const socialProviders = { github: provider, google: provider };
const referenceOptions = {
  socialProviders,
  plugins: [
    referenceBearer(),
    referenceOneTap(),
    referenceLastLoginMethod(),
    referenceOAuthProxy(),
    referenceGenericOAuth({ config: [idp] }),
    referenceTwoFactor(),
  ],
};
const latchkeyOptions = {
  socialProviders,
  plugins: [
    socialProviderFactories([github, google]),
    bearer(),
    oneTap(),
    lastLoginMethod(),
    oAuthProxy(),
    genericOAuth({ config: [idp] }),
    twoFactor(),
  ],
};

/** Latchkey's HTTP POST routes under basePath, as mounted in its Hono app. */
function latchkeyPostRoutes(h: HttpPair): string[] {
  const paths = h.pair.latchkeyAuth.app.routes
    .filter((r) => r.method === "POST" || r.method === "ALL")
    .map((r) => r.path.slice(BASE_PATH.length));
  return [...new Set(paths)].sort();
}

/** A concrete path for a route pattern: provider routes get a configured provider. */
const concrete = (route: string): string => route.replace(/:id\b/, "github").replace(/:[A-Za-z]+/g, "x");

interface Compared {
  reference: Captured;
  latchkey: Captured;
}

/** One raw request to both servers, each from the same stored rows (restored after each). */
async function sendBoth(h: HttpPair, raw: RawRequest): Promise<Compared> {
  const snapshot = snapshotTables(h.pair.db);
  try {
    const reference = await capture(await sendRaw(h.reference, raw));
    restoreTables(h.pair.db, snapshot);
    const latchkey = await capture(await sendRaw(h.latchkey, raw));
    return { reference, latchkey };
  } finally {
    restoreTables(h.pair.db, snapshot);
  }
}

/** What is compared: status, the compared headers, the body, cookie names and attributes. */
const view = (c: Captured): Captured => normalizeCaptured(c);

const SHAPES: BodylessShape[] = ["no-length", "zero-length"];

/** Routes whose answers differ by a recorded divergence (DIVERGENCES.md row), checked only for "not 415". */
const DIVERGENT: Record<string, number> = { "/get-session": 1, "/set-password": 12 };

describe("POST without a body, every route, over HTTP (reference behind its Node adapter)", () => {
  let h: HttpPair;
  let cookie: string;
  const routes = referencePostRoutes(referenceOptions);

  beforeAll(async () => {
    h = await createHttpPair({ originChecks: true, reference: referenceOptions, latchkey: latchkeyOptions });
    cookie = (
      await signUp(h.pair.reference, { name: "Ada", email: "ada@example.com", password: "password-1234" })
    ).cookie;
  });
  afterAll(() => h.close());

  it("both serve the same POST routes", () => {
    // Row 12: `/set-password` is an HTTP route in Latchkey only.
    expect(latchkeyPostRoutes(h)).toEqual([...routes, "/set-password"].sort());
    expect(routes.length).toBeGreaterThan(20);
  });

  const variants: Array<[label: string, headers: () => Record<string, string>]> = [
    ["without a session", () => ({})],
    ["with a session from a trusted origin", () => ({ cookie, origin: BASE_URL })],
    ["with a session and no Origin (the origin check answers first)", () => ({ cookie })],
  ];
  for (const shape of SHAPES) {
    for (const [label, headers] of variants) {
      it(`${shape}, ${label}: the same answer on every route, never 415`, async () => {
        const seen: Record<string, number> = {};
        for (const route of [...routes, "/set-password"]) {
          const path = `${BASE_PATH}${concrete(route)}`;
          const { reference, latchkey } = await sendBoth(h, {
            method: "POST",
            path,
            headers: headers(),
            shape,
          });
          expect(latchkey.status, `POST ${route}`).not.toBe(415);
          if (!DIVERGENT[route]) expect(view(latchkey), `POST ${route}`).toEqual(view(reference));
          seen[route] = reference.status;
        }
        // Pin a few of the reference's answers, so that a broken harness cannot pass.
        if (label.startsWith("with a session from")) {
          expect(seen["/sign-out"]).toBe(200);
          expect(seen["/revoke-sessions"]).toBe(200);
          expect(seen["/revoke-other-sessions"]).toBe(200);
        }
        if (label.startsWith("with a session and no Origin")) expect(seen["/sign-out"]).toBe(403);
        const refused = label.startsWith("with a session and no");
        expect(seen["/sign-in/email"]).toBe(refused ? 403 : 400);
        // A form_post callback without parameters redirects to the error page, after the origin check.
        expect(seen["/callback/:id"]).toBe(refused ? 403 : 302);
      });
    }
  }
});

describe("an empty or blank JSON body over HTTP", () => {
  let h: HttpPair;
  beforeAll(async () => {
    h = await createHttpPair();
  });
  afterAll(() => h.close());

  const json = { "content-type": "application/json" };
  const cases: Array<[what: string, raw: RawRequest, status: number, code: string]> = [
    [
      "Content-Type JSON, Content-Length 0",
      { method: "POST", path: `${BASE_PATH}/sign-in/email`, headers: json },
      400,
      "VALIDATION_ERROR",
    ],
    [
      "Content-Type JSON, no length",
      { method: "POST", path: `${BASE_PATH}/sign-in/email`, headers: json, shape: "no-length" },
      400,
      "VALIDATION_ERROR",
    ],
    [
      "Content-Type JSON, whitespace",
      { method: "POST", path: `${BASE_PATH}/sign-in/email`, headers: json, body: "  \n" },
      400,
      "BAD_REQUEST",
    ],
    [
      "Content-Type JSON, empty, on /sign-up/email",
      { method: "POST", path: `${BASE_PATH}/sign-up/email`, headers: json },
      400,
      "VALIDATION_ERROR",
    ],
  ];
  for (const [what, raw, status, code] of cases) {
    it(`${what}: ${status} ${code} on both`, async () => {
      const { reference, latchkey } = await sendBoth(h, raw);
      expect(reference.status).toBe(status);
      expect((reference.body as { code?: string }).code).toBe(code);
      expect(view(latchkey)).toEqual(view(reference));
    });
  }
});

describe("a zero-byte body handed to auth.handler in process (DIVERGENCES.md row 58)", () => {
  let h: HttpPair;
  beforeAll(async () => {
    h = await createHttpPair();
  });
  afterAll(() => h.close());

  const emptyStream = (): ReadableStream<Uint8Array> => new ReadableStream({ start: (c) => c.close() });
  const inProcess = (headers: Record<string, string>, body: () => BodyInit) => (): Request =>
    new Request(`${BASE_URL}${BASE_PATH}/sign-in/email`, {
      method: "POST",
      headers,
      body: body(),
      duplex: "half",
    } as RequestInit);

  it("Content-Type JSON, body '': reference Invalid JSON, Latchkey its own answer over HTTP (VALIDATION_ERROR)", async () => {
    const request = inProcess({ "content-type": "application/json" }, () => "");
    const reference = await capture(await h.pair.reference(request()));
    const latchkey = await capture(await h.pair.latchkey(request()));
    expect(reference.status).toBe(400);
    expect(reference.body).toEqual({ code: "BAD_REQUEST", message: "Invalid JSON in request body" });
    const overHTTP = await capture(
      await sendRaw(h.reference, {
        method: "POST",
        path: `${BASE_PATH}/sign-in/email`,
        headers: { "content-type": "application/json" },
      }),
    );
    expect(overHTTP.body).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(view(latchkey)).toEqual(view(overHTTP));
  });

  it("no Content-Type, an empty stream: reference 415, Latchkey its own answer over HTTP (VALIDATION_ERROR)", async () => {
    const request = inProcess({}, emptyStream);
    const reference = await capture(await h.pair.reference(request()));
    const latchkey = await capture(await h.pair.latchkey(request()));
    expect(reference.status).toBe(415);
    expect(reference.body).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
    const overHTTP = await capture(
      await sendRaw(h.reference, {
        method: "POST",
        path: `${BASE_PATH}/sign-in/email`,
        headers: {},
        shape: "no-length",
      }),
    );
    expect(overHTTP.status).toBe(400);
    expect(view(latchkey)).toEqual(view(overHTTP));
  });
});
