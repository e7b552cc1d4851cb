import { sso as referenceSSO } from "@better-auth/sso";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sso } from "@latchkey/sso";
import { signUp } from "./support/flows.ts";
import { createPair, jsonPost, type Pair } from "./support/instances.ts";

/**
 * The refusals of `@latchkey/sso` beside the reference's (`@better-auth/sso` 1.7.5): the same
 * status and body for registration, update and sign-in refusals (message-only bodies where the
 * reference sends no code), and divergence row 122 (SAML configurations).
 */
const limit = (user: { email: string }) => (user.email.startsWith("closed") ? 0 : 10);

const endpoints = {
  skipDiscovery: true,
  authorizationEndpoint: "https://idp.example.com/authorize",
  tokenEndpoint: "https://idp.example.com/token",
  jwksEndpoint: "https://idp.example.com/jwks",
};
const body = (providerId: string, oidcConfig: Record<string, unknown> = {}) => ({
  providerId,
  issuer: "https://idp.example.com",
  domain: `${providerId}.example.com`,
  oidcConfig: { clientId: "client-1234", clientSecret: "secret", ...endpoints, ...oidcConfig },
});

describe("sso: refusals answer as the reference's", () => {
  let pair: Pair;
  let n = 0;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceSSO({ providersLimit: limit })] },
      latchkey: { plugins: [sso({ providersLimit: limit })] },
    });
  });
  afterAll(() => pair.close());

  /** The same request by a fresh user on each side: status and JSON body. */
  async function both(path: string, payload: unknown, prefix = "user") {
    const answers = [];
    for (const side of ["reference", "latchkey"] as const) {
      const owner = await signUp(pair.reference, {
        email: `${prefix}-${++n}@example.com`,
        password: "password-1234",
        name: "U",
      });
      const sent = typeof payload === "function" ? (payload as (side: string) => unknown)(side) : payload;
      const response = await pair[side](jsonPost(path, sent, { cookie: owner.cookie }));
      answers.push({ status: response.status, json: (await response.json().catch(() => null)) as unknown });
    }
    return answers as [{ status: number; json: unknown }, { status: number; json: unknown }];
  }

  it.each([
    ["a reserved providerId", "/sso/register", body("credential"), "user"],
    ["registration disabled (providersLimit 0)", "/sso/register", body("closed-one"), "closed"],
    ["an update naming nothing to change", "/sso/update-provider", { providerId: "any" }, "user"],
    [
      "no client secret for client_secret_basic",
      "/sso/register",
      body("nosecret", { clientSecret: undefined }),
      "user",
    ],
    ["no clientId", "/sso/register", body("noclient", { clientId: undefined }), "user"],
    [
      "private_key_jwt without a key source",
      "/sso/register",
      body("pkjwt", { clientSecret: undefined, tokenEndpointAuthentication: "private_key_jwt" }),
      "user",
    ],
    [
      "reserved additionalParams at sign-in",
      "/sign-in/sso",
      { callbackURL: "/d", providerId: "x", additionalParams: { state: "s" } },
      "user",
    ],
    ["a sign-in naming no provider", "/sign-in/sso", { callbackURL: "/d" }, "user"],
  ])("%s", async (_label, path, payload, prefix) => {
    const [reference, latchkey] = await both(path, payload, prefix);
    expect(reference.status).toBeGreaterThanOrEqual(400);
    expect(latchkey).toEqual(reference);
  });

  it("an untrusted endpoint on a private host: 400 discovery_private_host on both (messages worded apart)", async () => {
    const [reference, latchkey] = await both(
      "/sso/register",
      body("internal", { tokenEndpoint: "http://10.0.0.1/token" }),
    );
    const codeOf = (a: { status: number; json: unknown }) => [a.status, (a.json as { code?: string }).code];
    expect(codeOf(reference)).toEqual([400, "discovery_private_host"]);
    expect(codeOf(latchkey)).toEqual(codeOf(reference));
    expect(
      pair.db.prepare("select count(*) as n from ssoProvider where providerId = 'internal'").all([]),
    ).toEqual([{ n: 0 }]);
  });

  it("row 122: a SAML configuration is registered by the reference; Latchkey (OIDC only) answers 400 SAML_NOT_SUPPORTED", async () => {
    const saml = (side: string) => ({
      providerId: `saml-${side}`,
      issuer: "https://idp.example.com",
      domain: "saml.example.com",
      samlConfig: {
        entryPoint: "https://idp.example.com/sso",
        cert: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
        callbackUrl: "http://localhost:3000/api/auth/sso/saml2/sp/acs/saml",
        idpMetadata: { entityID: "https://idp.example.com/metadata" },
        spMetadata: {},
      },
    });
    const [reference, latchkey] = await both("/sso/register", saml);
    expect(reference.status, JSON.stringify(reference.json)).toBe(200);
    expect(latchkey).toEqual({
      status: 400,
      json: { code: "SAML_NOT_SUPPORTED", message: "SAML providers are not supported" },
    });
    expect(
      pair.db.prepare("select count(*) as n from ssoProvider where providerId = 'saml-latchkey'").all([]),
    ).toEqual([{ n: 0 }]);
  });

  it("row 124: two providers cover an email's parent domains: the reference takes the first row it reads, Latchkey the most specific", async () => {
    const owner = await signUp(pair.reference, {
      email: "nested@example.com",
      password: "password-1234",
      name: "N",
    });
    for (const [providerId, domain] of [
      ["outer", "nested.example.com"],
      ["inner", "eu.nested.example.com"],
    ] as const) {
      const answer = await pair.latchkey(
        jsonPost("/sso/register", { ...body(providerId), domain }, { cookie: owner.cookie }),
      );
      expect(answer.status).toBe(200);
    }
    const pick = async (side: "reference" | "latchkey") => {
      const response = await pair[side](
        jsonPost("/sign-in/sso", { callbackURL: "/d", email: "ann@sales.eu.nested.example.com" }),
      );
      const { url } = (await response.json()) as { url: string };
      return new URL(url).searchParams.get("redirect_uri");
    };
    expect(await pick("reference")).toBe("http://localhost:3000/api/auth/sso/callback/outer");
    expect(await pick("latchkey")).toBe("http://localhost:3000/api/auth/sso/callback/inner");
  });
});
