import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { genericOAuth } from "better-auth/plugins";
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { oidcProvider } from "@latchkey/core";
import { signUp } from "./support/flows.ts";
import { createPair, jsonPost, SECRET, url, type Handler, type Pair } from "./support/instances.ts";

/**
 * The outside world: a provider with a discovery document and a token endpoint that answers
 * refresh grants with numbered tokens and records the refresh tokens it was sent (so a test
 * sees which side decrypted what).
 */
async function startTokenEndpoint() {
  const received: string[] = [];
  let n = 1;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      res.setHeader("content-type", "application/json");
      if (req.url === "/.well-known/openid-configuration") {
        res.end(
          JSON.stringify({
            issuer: origin,
            authorization_endpoint: `${origin}/authorize`,
            token_endpoint: `${origin}/token`,
            jwks_uri: `${origin}/jwks`,
            userinfo_endpoint: `${origin}/userinfo`,
            id_token_signing_alg_values_supported: ["RS256"],
          }),
        );
        return;
      }
      const form = new URLSearchParams(body);
      if (req.url === "/token" && form.get("grant_type") === "refresh_token") {
        received.push(form.get("refresh_token") ?? "");
        n++;
        res.end(
          JSON.stringify({
            access_token: `at-${n}`,
            refresh_token: `rt-${n}`,
            token_type: "Bearer",
            expires_in: 3600,
          }),
        );
        return;
      }
      res.statusCode = 400;
      res.end(JSON.stringify({ error: "invalid_request" }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let idp: Awaited<ReturnType<typeof startTokenEndpoint>>;
let pair: Pair;
let cookie: string;
let userId: string;

beforeAll(async () => {
  idp = await startTokenEndpoint();
  pair = await createPair({
    reference: {
      account: { encryptOAuthTokens: true },
      plugins: [
        genericOAuth({
          config: [
            {
              providerId: "idp",
              clientId: "client",
              clientSecret: "secret",
              authorizationUrl: `${idp.issuer}/authorize`,
              tokenUrl: `${idp.issuer}/token`,
              userInfoUrl: `${idp.issuer}/userinfo`,
            },
          ],
        }),
      ],
    },
    latchkey: {
      account: { encryptOAuthTokens: true },
      socialProviders: {
        idp: oidcProvider({ id: "idp", issuer: idp.issuer, clientId: "client", clientSecret: "secret" }),
      },
    },
  });
  const signed = await signUp(pair.reference, {
    name: "Ada",
    email: "ada@example.com",
    password: "password-1234",
  });
  cookie = signed.cookie;
  userId = signed.userId;
});
afterAll(async () => {
  pair.close();
  await idp.close();
});

/** Writes an IdP account row for Ada the way the reference stores it (tokens encrypted by the reference's own code). */
async function referenceRow(
  id: string,
  tokens: { access: string; refresh: string },
  scope = "openid,email",
  expiresInMs = 3_600_000,
) {
  const now = new Date().toISOString();
  pair.db
    .prepare(
      `INSERT INTO "account" ("id","accountId","providerId","userId","accessToken","refreshToken","idToken","accessTokenExpiresAt","scope","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
    )
    .run([
      id,
      `sub-${id}`,
      "idp",
      userId,
      await symmetricEncrypt({ key: SECRET, data: tokens.access }),
      await symmetricEncrypt({ key: SECRET, data: tokens.refresh }),
      "header.payload.signature",
      new Date(Date.now() + expiresInMs).toISOString(),
      scope,
      now,
      now,
    ]);
}

const column = (id: string, name: string): string =>
  (
    pair.db.prepare(`SELECT "${name}" AS v FROM "account" WHERE "id" = ?`).all([id]) as Array<{ v: string }>
  )[0]!.v;
const expire = (id: string) =>
  pair.db
    .prepare(`UPDATE "account" SET "accessTokenExpiresAt" = ? WHERE "id" = ?`)
    .run([new Date(Date.now() - 60_000).toISOString(), id]);
const call = async (handler: Handler, path: string, body: unknown, withCookie = true) => {
  const res = await handler(jsonPost(path, body, withCookie ? { cookie } : {}));
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : text };
};
const get = async (handler: Handler, path: string) => {
  const res = await handler(new Request(url(path), { headers: { cookie } }));
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : text };
};

describe("encrypted OAuth tokens across implementations (account.encryptOAuthTokens)", () => {
  it("a row the reference encrypted: Latchkey's /get-access-token and /list-accounts read it as the reference does", async () => {
    await referenceRow("ref-row-1", { access: "at-1", refresh: "rt-1" });
    const ours = await call(pair.latchkey, "/get-access-token", { accountId: "ref-row-1" });
    const theirs = await call(pair.reference, "/get-access-token", { accountId: "ref-row-1" });
    expect(ours).toEqual(theirs);
    expect(ours.body).toMatchObject({
      accessToken: "at-1",
      scopes: ["openid", "email"],
      idToken: "header.payload.signature",
    });
    expect(await get(pair.latchkey, "/list-accounts")).toEqual(await get(pair.reference, "/list-accounts"));
  });

  it("Latchkey refreshes a reference row (decrypting its refresh token) and stores tokens the reference decrypts", async () => {
    await referenceRow("ref-row-2", { access: "old", refresh: "rt-from-reference" });
    expire("ref-row-2");
    const refreshed = await call(pair.latchkey, "/get-access-token", { accountId: "ref-row-2" });
    expect(refreshed.status).toBe(200);
    expect(idp.received.at(-1)).toBe("rt-from-reference");
    const access = (refreshed.body as { accessToken: string }).accessToken;
    expect(column("ref-row-2", "accessToken")).toMatch(/^[0-9a-f]+$/);
    expect(await symmetricDecrypt({ key: SECRET, data: column("ref-row-2", "refreshToken") })).toMatch(
      /^rt-\d+$/,
    );
    const theirs = await call(pair.reference, "/get-access-token", { accountId: "ref-row-2" });
    expect((theirs.body as { accessToken: string }).accessToken).toBe(access);
    // The scope is not rewritten by a refresh.
    expect(column("ref-row-2", "scope")).toBe("openid,email");
  });

  it("the reference refreshes a row Latchkey wrote, and Latchkey reads the result", async () => {
    await referenceRow("ref-row-3", { access: "a", refresh: "r" });
    expire("ref-row-3");
    await call(pair.latchkey, "/get-access-token", { accountId: "ref-row-3" });
    const latchkeyRefresh = await symmetricDecrypt({
      key: SECRET,
      data: column("ref-row-3", "refreshToken"),
    });
    expire("ref-row-3");
    const theirs = await call(pair.reference, "/get-access-token", { accountId: "ref-row-3" });
    expect(theirs.status).toBe(200);
    expect(idp.received.at(-1)).toBe(latchkeyRefresh);
    const ours = await call(pair.latchkey, "/get-access-token", { accountId: "ref-row-3" });
    expect(ours).toEqual(await call(pair.reference, "/get-access-token", { accountId: "ref-row-3" }));
    expect((ours.body as { accessToken: string }).accessToken).toBe(
      (theirs.body as { accessToken: string }).accessToken,
    );
  });

  it("POST /refresh-token answers the same fields on both sides; accountId is the row id", async () => {
    await referenceRow("ref-row-4", { access: "a4", refresh: "r4" });
    const ours = (await call(pair.latchkey, "/refresh-token", { accountId: "ref-row-4" })).body as Record<
      string,
      unknown
    >;
    const theirs = (await call(pair.reference, "/refresh-token", { accountId: "ref-row-4" })).body as Record<
      string,
      unknown
    >;
    expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
    for (const body of [ours, theirs]) {
      expect(body).toMatchObject({
        providerId: "idp",
        accountId: "ref-row-4",
        scope: "openid,email",
        idToken: "header.payload.signature",
      });
    }
  });
});

describe("account-route answers for the same rows", () => {
  const same: Array<[string, string, unknown]> = [
    ["unknown account id", "/get-access-token", { accountId: "nope" }],
    ["unknown account id", "/refresh-token", { accountId: "nope" }],
    ["useAccountCookie (no account cookie is stored)", "/get-access-token", { useAccountCookie: true }],
    ["useAccountCookie (no account cookie is stored)", "/refresh-token", { useAccountCookie: true }],
    ["empty body", "/get-access-token", {}],
    ["an unknown key", "/get-access-token", { accountId: "ref-row-1", foo: 1 }],
    ["a non-string account id", "/refresh-token", { accountId: 5 }],
    ["unlink an unknown account", "/unlink-account", { accountId: "nope" }],
    ["unlink without accountId", "/unlink-account", {}],
  ];
  for (const [name, path, body] of same) {
    it(`${path}: ${name}`, async () => {
      expect(await call(pair.latchkey, path, body)).toEqual(await call(pair.reference, path, body));
    });
  }

  it("without a session: 401 with an empty body on both", async () => {
    const ours = await call(pair.latchkey, "/get-access-token", { accountId: "ref-row-1" }, false);
    expect(ours).toEqual(await call(pair.reference, "/get-access-token", { accountId: "ref-row-1" }, false));
    expect(ours).toEqual({ status: 401, body: "" });
  });

  it("GET /account-info for an unknown account, and without a selection", async () => {
    expect(await get(pair.latchkey, "/account-info?accountId=nope")).toEqual(
      await get(pair.reference, "/account-info?accountId=nope"),
    );
    expect(await get(pair.latchkey, "/account-info")).toEqual(await get(pair.reference, "/account-info"));
  });
});

describe("divergences (DIVERGENCES.md)", () => {
  it("a body with providerId: the reference answers VALIDATION_ERROR, Latchkey 400 INVALID_BODY (spec, rules for account routes 2)", async () => {
    for (const path of ["/get-access-token", "/refresh-token"]) {
      const theirs = await call(pair.reference, path, { providerId: "idp" });
      expect(theirs).toEqual({
        status: 400,
        body: { code: "VALIDATION_ERROR", message: "[body] Invalid input" },
      });
      const ours = await call(pair.latchkey, path, { providerId: "idp" });
      expect(ours.status).toBe(400);
      expect((ours.body as { code: string }).code).toBe("INVALID_BODY");
    }
    const theirs = await call(pair.reference, "/get-access-token", {
      accountId: "ref-row-1",
      providerId: "idp",
    });
    expect(theirs.body).toEqual({
      code: "VALIDATION_ERROR",
      message: '[body] Unrecognized key: "providerId"',
    });
    expect(
      (
        (await call(pair.latchkey, "/get-access-token", { accountId: "ref-row-1", providerId: "idp" }))
          .body as { code: string }
      ).code,
    ).toBe("INVALID_BODY");
    // /unlink-account: the reference ignores providerId next to accountId; Latchkey refuses it.
    const unlink = await call(pair.latchkey, "/unlink-account", { accountId: "nope", providerId: "idp" });
    expect((unlink.body as { code: string }).code).toBe("INVALID_BODY");
    expect(
      (await call(pair.reference, "/unlink-account", { accountId: "nope", providerId: "idp" })).body,
    ).toEqual({
      code: "ACCOUNT_NOT_FOUND",
      message: "Account not found",
    });
  });

  it("GET /account-info?useAccountCookie=true: the reference answers VALIDATION_ERROR, Latchkey ACCOUNT_NOT_FOUND (spec, rules 3)", async () => {
    expect(await get(pair.reference, "/account-info?useAccountCookie=true")).toEqual({
      status: 400,
      body: { code: "VALIDATION_ERROR", message: "[query] Invalid input" },
    });
    expect(await get(pair.latchkey, "/account-info?useAccountCookie=true")).toEqual({
      status: 400,
      body: { code: "ACCOUNT_NOT_FOUND", message: "Account not found" },
    });
  });

  it("a scope row written space-separated (1.0): the reference lists one scope, Latchkey each (spec, account scope)", async () => {
    await referenceRow("ref-row-space", { access: "a", refresh: "r" }, "openid email profile");
    const pick = (list: unknown) =>
      (list as Array<{ id: string; scopes: string[] }>).find((a) => a.id === "ref-row-space")!.scopes;
    expect(pick((await get(pair.reference, "/list-accounts")).body)).toEqual(["openid email profile"]);
    expect(pick((await get(pair.latchkey, "/list-accounts")).body)).toEqual(["openid", "email", "profile"]);
  });
});
